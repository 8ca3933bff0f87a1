"""dstat import speed: `python bench/dstat_speed.py [--lines N]`.

Makes a `dstat -tcdngy --load --io --proc` text capture (21 values a row, unit suffixes k/M/G) and
its `--output` CSV twin of about N lines each (default 200,000) from the rows of the real capture
tests/fixtures/dstat/dstat_0.7.4_C_t-load-io-proc.txt (values cycled, one second apart), imports
each with `benchlens import` into a fresh library in a subprocess (bench/import_speed.py's
harness) and prints lines/s and the ratio to `wc -l` on the same file.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from import_speed import OUT, report, wc_seconds

FIXTURE = Path(__file__).parent.parent / "tests/fixtures/dstat/dstat_0.7.4_C_t-load-io-proc.txt"
CSV_HEAD = (
    '"Dstat 0.8.0 CSV output"\n"Author:","Dag Wieers <dag@wieers.com>",,,,"URL:","http://dag.wieers.com/home-made/dstat/"\n'
    '"Host:","bench",,,,"User:","root"\n"Cmdline:","dstat -tcdngy --load --io --proc --output x.csv 1",,,,'
    '"Date:","23 Nov 2026 17:38:16 UTC"\n'
)


def _suffixed(word: str) -> float:
    power = {"k": 1, "M": 2, "G": 3, "B": 0}.get(word[-1], 0)
    return float(word.rstrip("kMGB")) * 1024**power


def make(text: Path, csv: Path, lines: int) -> None:
    src = FIXTURE.read_text().splitlines()
    header, rows = src[:2], [r for r in src[2:] if r[:2].isdigit()]
    t0 = time.mktime(time.strptime("2026-11-23 17:38:16", "%Y-%m-%d %H:%M:%S"))
    titles = [g.strip("-").replace("-", " ") for g in header[0].split()]
    nicks = [n for part in header[1].split("|") for n in part.split()]
    with text.open("w") as f, csv.open("w") as g:
        f.write("\n".join(header) + "\n")
        g.write(CSV_HEAD)
        g.write(
            ",".join(
                f'"{t}"' + "," * (len(part.split()) - 1) for t, part in zip(titles, header[1].split("|"), strict=True)
            )
        )
        g.write("\n" + ",".join(f'"{n}"' for n in nicks) + "\n")
        for k in range(lines - 2):
            stamp = time.strftime("%d-%m %H:%M:%S", time.localtime(t0 + k))
            row = rows[k % len(rows)]
            f.write(stamp + row[14:] + "\n")
            words = row[15:].replace("|", " ").split()
            g.write(stamp + "," + ",".join(f"{_suffixed(w):.3f}".rstrip("0").rstrip(".") for w in words) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3, help="imports per file (the median is printed)")
    args = ap.parse_args()
    OUT.mkdir(exist_ok=True)
    text, csv = OUT / "dstat-tcdngy-load-io-proc.txt", OUT / "dstat-tcdngy-load-io-proc.csv"
    if not text.exists() or wc_seconds(text)[0] < args.lines * 0.9:
        make(text, csv, args.lines)
    report("dstat text, 21 values", text, args.repeat)
    report("dstat --output CSV, 21 values", csv, args.repeat)


if __name__ == "__main__":
    main()
