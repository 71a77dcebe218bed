"""Reading back what a written page holds: its JSON header and its
(inflated) hop columns, as the page's own script would."""

from __future__ import annotations

import base64
import gzip
import json
import re


def page_parts(html_path):
    text = open(html_path, encoding="utf-8").read()
    meta = re.search(r'<script type="application/json" id="nam-meta">(.*?)</script>', text, re.S).group(1)
    data = re.search(r'<script type="application/octet-stream" id="nam-data">(.*?)</script>', text, re.S).group(1)
    meta = json.loads(meta.replace("<\\/", "</"))
    raw = gzip.decompress(base64.b64decode(data)) if data.strip() else b""
    return text, meta, raw
