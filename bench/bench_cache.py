"""What the caches save, now that they hold JSON and sealed code instead of pickles.

Run from the repository root::

    .venv/bin/python bench/bench_cache.py [--runs 5]

All in one process, with a cache folder of its own (a temporary ``XDG_CACHE_HOME``):

1. For each built-in ruleset, a catalog loaded the three ways, after its module is imported
   (import time is not the cache's): **yaml**, read and validated from its files (the
   baseline, SHIPYARD_NO_CACHE=1); **json**, read from the cache as a command does
   (``shipyard.core.catalog._load_layers`` without the in-process cache: file checks,
   ``json.loads``, decoding, the ruleset's module attached); **pickle**, the same catalog
   (the same state the JSON cache keeps) from a pickle, as the cache was before, also with
   the module attached. Medians of ``--runs`` runs; the ratios are against yaml, and json
   against pickle.
2. **key**: a warm ``load_catalog`` in a process that has the catalog (every file's status
   checked, a digest made again only for a changed file), against the json read.
3. Compiled templates: every template of each ruleset's sheets (its own folder and
   ``common``) compiled in a fresh environment, **compile**, against the same loaded from
   the sealed bytecode cache, **sealed** (read, HMAC checked, unmarshalled).

The machines are shared and noisy: compare the ratios, not the milliseconds.
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def catalogs(runs: int) -> list[tuple[str, float, float, float, float, int, int]]:
    from shipyard.core import cachefile, catalog_cache
    from shipyard.core import catalog as catalog_module
    from shipyard.core.registry import get, ruleset_module, rulesets

    rows = []
    build = catalog_module._load_layers.__wrapped__  # the loader without the in-process cache
    for info in rulesets():
        rid = info.id
        module = ruleset_module(rid)
        key = catalog_module._cache_key(rid, ())

        def from_yaml(rid: str = rid, key: object = key) -> object:
            os.environ["SHIPYARD_NO_CACHE"] = "1"
            try:
                return build(rid, (), key)
            finally:
                del os.environ["SHIPYARD_NO_CACHE"]

        catalog = build(rid, (), key)  # writes the cache entry
        name = catalog_cache._name(key)
        json_bytes = (cachefile.root() / name).stat().st_size
        pickled = pickle.dumps(
            {"format": "shipyard-cache-1", "key": key, "value": catalog}, protocol=pickle.HIGHEST_PROTOCOL
        )

        def from_pickle(pickled: bytes = pickled, module: object = module) -> object:
            value = pickle.loads(pickled)["value"]
            value.attach(module)
            return value

        yaml_ms = median_ms(from_yaml, max(2, runs // 2))
        json_ms = median_ms(lambda rid=rid, key=key: build(rid, (), key), runs)
        pickle_ms = median_ms(from_pickle, runs)
        catalog_module.load_catalog(rid, use_user_folder=False)
        warm_ms = median_ms(lambda rid=rid: catalog_module.load_catalog(rid, use_user_folder=False), runs * 20)
        rows.append((rid, yaml_ms, json_ms, pickle_ms, warm_ms, json_bytes, len(pickled)))
        assert get(rid).id == rid
    return rows


def compiled_templates(runs: int) -> list[tuple[str, float, float, int]]:
    from shipyard.core.registry import get, rulesets
    from shipyard.core.resources import builtin_template_root
    from shipyard.render import templates
    from shipyard.render.context import template_dirs

    rows = []
    for info in rulesets():
        dirs = template_dirs(info.id, [], get(info.id).templates, builtin_template_root() / "common")
        names = sorted({p.name for d in dirs for p in Path(d).glob("*.html")})

        def compile_all(cached: bool, dirs: list[Path] = dirs, names: list[str] = names) -> None:
            templates._environment.cache_clear()
            templates.kept_compiled.cache_clear()
            if not cached:
                os.environ["SHIPYARD_NO_CACHE"] = "1"
            try:
                env = templates.environment(dirs)
                for n in names:
                    env.get_template(n)
            finally:
                os.environ.pop("SHIPYARD_NO_CACHE", None)

        compile_all(True)  # sealed and kept
        compile_ms = median_ms(lambda: compile_all(False), max(2, runs // 2))
        sealed_ms = median_ms(lambda: compile_all(True), runs)
        rows.append((info.id, compile_ms, sealed_ms, len(names)))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="shipyard-bench-cache-")
    os.environ.pop("SHIPYARD_NO_CACHE", None)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    print(f"cache folder {os.environ['XDG_CACHE_HOME']}; medians of {args.runs} runs (yaml: {max(2, args.runs // 2)})")
    print(
        f"{'ruleset':22} {'yaml ms':>8} {'json ms':>8} {'pickle ms':>9} {'key ms':>7} "
        f"{'yaml/json':>9} {'yaml/pkl':>8} {'json/pkl':>8} {'json KB':>7} {'pkl KB':>6}"
    )
    speedups, versus_pickle = [], []
    for rid, yaml_ms, json_ms, pickle_ms, warm_ms, json_bytes, pickle_bytes in catalogs(args.runs):
        speedups.append(yaml_ms / json_ms)
        versus_pickle.append(json_ms / pickle_ms)
        print(
            f"{rid:22} {yaml_ms:8.1f} {json_ms:8.1f} {pickle_ms:9.1f} {warm_ms:7.2f} {yaml_ms / json_ms:9.1f} "
            f"{yaml_ms / pickle_ms:8.1f} {json_ms / pickle_ms:8.2f} {json_bytes / 1024:7.0f} {pickle_bytes / 1024:6.0f}"
        )
    print(f"\n{'templates of':22} {'compile ms':>10} {'sealed ms':>9} {'compile/sealed':>14} {'files':>5}")
    template_gain = []
    for rid, compile_ms, sealed_ms, count in compiled_templates(args.runs):
        template_gain.append(compile_ms / sealed_ms)
        print(f"{rid:22} {compile_ms:10.1f} {sealed_ms:9.1f} {compile_ms / sealed_ms:14.1f} {count:5}")
    print(
        f"\nSUMMARY catalog yaml/json median {statistics.median(speedups):.1f}x "
        f"(min {min(speedups):.1f}x); json/pickle median {statistics.median(versus_pickle):.2f} "
        f"(max {max(versus_pickle):.2f}); templates compile/sealed median {statistics.median(template_gain):.1f}x"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
