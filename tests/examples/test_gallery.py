"""docs/gallery.md's figures are made by one command each
(examples/gallery.py NAME): two of them here, into a scratch directory."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_gallery_figures_are_one_command_each(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "gallery.py"), "seed002-cwnd", "red-queue",
                        "--out", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    for name in ("seed002-cwnd", "red-queue"):
        png = tmp_path / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"{name}: {png}" in r.stdout
    # every figure the page shows is one the script makes
    page = (ROOT / "docs" / "gallery.md").read_text()
    import re

    shown = re.findall(r"\(gallery/([\w-]+)\.png\)", page)
    assert shown and all(f"gallery.py {name}" in page for name in shown)
    assert all((ROOT / "docs" / "gallery" / f"{name}.png").is_file() for name in shown)
