"""Models beside the packet-level engine: Hamann's discrete-time "simple
model" of seed 000 (`hamann_simple`) and the fluid (delay differential
equation) model of TCP over DropTail/RED (`fluid`), with its linear
analysis (`linear`).  Pure Python and numpy; nothing here calls the engine.
"""
