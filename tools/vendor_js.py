"""Fetch the book's JavaScript from the npm registry into a local folder, checked.

Usage: python tools/vendor_js.py js-assets.json _vendor

Each package in the manifest is fetched with ``npm pack`` (into a cache folder
beside the output, so a rebuild does not fetch again), its sha512 is compared
with the manifest's ``integrity``, and the listed paths are extracted. It also
writes ``_vendor/goodput/altair-versions.js``, which tells altair's chart output
that vega, vega-lite and vega-embed are already on the page, in the version
strings altair itself compares against.
"""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path


def _integrity(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def _fetch(pkg: dict, cache: Path) -> Path:
    tarball = cache / f"{pkg['name'].lstrip('@').replace('/', '-')}-{pkg['version']}.tgz"
    if not tarball.exists() or _integrity(tarball) != pkg["integrity"]:
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "pack", "--silent", f"{pkg['name']}@{pkg['version']}", "--pack-destination", str(cache)],
            check=True, stdout=subprocess.DEVNULL,
        )
    got = _integrity(tarball)
    if got != pkg["integrity"]:
        sys.exit(f"vendor_js: {tarball.name}: sha512 {got} does not match the manifest's {pkg['integrity']}")
    return tarball


def _extract(pkg: dict, tarball: Path, out: Path) -> int:
    count = 0
    with tarfile.open(tarball) as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            rel = member.name.removeprefix("package/")
            if not any(fnmatch.fnmatch(rel, pat) or rel.startswith(pat.rstrip("*"))
                       and pat.endswith("/*") for pat in pkg["include"]):
                continue
            target = out / pkg["dest"] / rel.removeprefix(pkg["strip"])
            target.parent.mkdir(parents=True, exist_ok=True)
            with tar.extractfile(member) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
            count += 1
    if count == 0:
        sys.exit(f"vendor_js: {pkg['name']}: nothing matched {pkg['include']}")
    return count


def _altair_versions(manifest: dict, out: Path) -> None:
    from altair.vegalite.v6 import display

    pinned = {p["name"]: p["version"] for p in manifest["packages"]}
    if pinned["vega-lite"] != display.VEGALITE_VERSION:
        sys.exit(f"vendor_js: vega-lite {pinned['vega-lite']} is pinned but altair renders "
                 f"Vega-Lite {display.VEGALITE_VERSION}: pin the same version")
    for lib, want in (("vega", display.VEGA_VERSION), ("vega-embed", display.VEGAEMBED_VERSION)):
        if pinned[lib].split(".")[0] != want.split(".")[0]:
            sys.exit(f"vendor_js: {lib} {pinned[lib]} is pinned but altair asks for {want}")
    versions = {
        "vega_version": display.VEGA_VERSION,
        "vegalite_version": display.VEGALITE_VERSION,
        "vegaembed_version": display.VEGAEMBED_VERSION,
    }
    target = out / "goodput" / "altair-versions.js"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(
        "// Written by tools/vendor_js.py: altair's chart output skips its CDN download\n"
        "// when VEGA_DEBUG names the versions already on the page.\n"
        f"window.VEGA_DEBUG = Object.assign(window.VEGA_DEBUG || {{}}, {json.dumps(versions)});\n"
    )


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    manifest = json.loads(Path(argv[1]).read_text())
    out = Path(argv[2])
    cache = Path(argv[2] + "-cache")
    fresh = out.with_name(out.name + ".new")
    shutil.rmtree(fresh, ignore_errors=True)
    for pkg in manifest["packages"]:
        n = _extract(pkg, _fetch(pkg, cache), fresh)
        print(f"vendor_js: {pkg['name']}@{pkg['version']}: {n} files")
    _altair_versions(manifest, fresh)
    shutil.rmtree(out, ignore_errors=True)
    fresh.rename(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
