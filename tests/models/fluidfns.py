"""A sweep function over the fluid mode (tests/models/test_fluid.py's
sweep test): a dumbbell of n Reno flows through RED or PI."""


def dumbbell_fluid(n, queue, T=60.0):
    import dumbbell as db

    sim = db.Simulation()
    L, R = sim.nodes(2)
    qp = ({"thresh": 10, "maxthresh": 30, "q_weight": 0.002, "bytes": False, "queue_in_bytes": False}
          if queue == "RED" else {"a": 2.4e-4, "b": 2.4e-4 - 4e-6, "w": 160, "qref": 20})
    sim.link(L, R, bandwidth="10Mb", delay="5ms", queue=queue, queue_limit=200, queue_params=qp)
    s, d = sim.nodes(2)
    sim.link(s, L, bandwidth="100Mb", delay="10ms")
    sim.link(R, d, bandwidth="100Mb", delay="10ms")
    for _ in range(n):
        sim.tcp(s, d, variant="reno", window=1000)
    fr = sim.run(T, mode="fluid")
    return {"mean_queue": fr.time_average_queue(), "late_queue": fr.time_average_queue((T / 2, T)),
            "goodput": float(fr.flows["goodput_pkts"].sum()) / T}
