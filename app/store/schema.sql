-- benchlens library, schema version 1.
-- Series values are stored as contiguous arrays in BLOBs, in chunks of up to a few hundred
-- thousand points: reading one BLOB per 100k-point series takes ~1 ms, where a narrow
-- (series, t, value) table needs ~70 ms. Time arrays are float64 and shared: all metrics of one
-- device sampled at the same instants point to one `times` row. Values are float64 (scale = -1)
-- or, when that round-trips bit for bit, int32 counts of 10^-scale (monitors print integers or
-- two decimals): half the bytes to write, decoded as int32 / 10^scale.
-- The same text creates a MariaDB/MySQL library (app/store/server.py spells INTEGER PRIMARY KEY,
-- REAL, TEXT and BLOB its way: AUTO_INCREMENT, DOUBLE, MEDIUMTEXT, LONGBLOB); a text column that is
-- a key is VARCHAR(n), which SQLite reads as TEXT and a server needs bounded (n * 4 bytes <= 3072
-- for one index).

CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    name        VARCHAR(255) NOT NULL UNIQUE,
    folder      TEXT NOT NULL,          -- absolute path of the imported folder (or file)
    host        TEXT,
    kernel      TEXT,
    cpus        INTEGER,
    start       REAL,                   -- epoch seconds, UTC
    end         REAL,
    bench_start REAL,
    bench_end   REAL,
    tz          TEXT,                   -- the clock the folder was read with, e.g. 'UTC+00:00 (iostat ISO offsets)'
    notes       TEXT NOT NULL DEFAULT '',
    imported    REAL NOT NULL
);

CREATE TABLE sources (
    id        INTEGER PRIMARY KEY,
    run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    path      TEXT NOT NULL,            -- relative to the run folder
    sha256    TEXT NOT NULL,
    size      INTEGER NOT NULL,
    mtime_ns  INTEGER NOT NULL,
    format    TEXT NOT NULL,
    variant   TEXT NOT NULL DEFAULT '',
    clock     TEXT NOT NULL DEFAULT '', -- how times were placed: 'file times', 'file times + folder zone', 'placed: ...'
    warnings  TEXT NOT NULL DEFAULT '[]', -- JSON list of "line N: ..." strings
    meta      TEXT NOT NULL DEFAULT '{}'  -- JSON: host, kernel, cpus, zone evidence ...
);
CREATE INDEX sources_run ON sources(run_id);

CREATE TABLE series (
    id        INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    metric    VARCHAR(255) NOT NULL,
    entity    VARCHAR(500) NOT NULL DEFAULT '',
    unit      TEXT NOT NULL DEFAULT '',
    n         INTEGER NOT NULL DEFAULT 0,
    start     REAL,
    end       REAL,
    UNIQUE (source_id, metric, entity)
);

CREATE TABLE times (
    id        INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    t         BLOB NOT NULL
);
CREATE INDEX times_source ON times(source_id);

CREATE TABLE chunks (
    series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    times_id  INTEGER NOT NULL REFERENCES times(id) ON DELETE CASCADE,
    scale     INTEGER NOT NULL DEFAULT -1,    -- -1: v is float64; k >= 0: v is int32 of 10^-k
    v         BLOB NOT NULL,
    PRIMARY KEY (series_id, seq)
);
CREATE INDEX chunks_times ON chunks(times_id);

CREATE TABLE annotations (
    id        INTEGER PRIMARY KEY,
    run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    start     REAL NOT NULL,
    end       REAL NOT NULL,
    kind      TEXT NOT NULL DEFAULT 'note',   -- 'note' (manual) or 'drop' (detected)
    state     TEXT NOT NULL DEFAULT '',       -- for drops: '', 'accepted', 'dismissed'
    label     TEXT NOT NULL DEFAULT '',
    source    TEXT, metric TEXT, entity TEXT,
    created   REAL NOT NULL
);
CREATE INDEX annotations_run ON annotations(run_id);

CREATE TABLE views (
    id        INTEGER PRIMARY KEY,
    name      VARCHAR(255) NOT NULL UNIQUE,
    spec      TEXT NOT NULL,                  -- JSON: runs, panels, offsets, zoom
    updated   REAL NOT NULL
);
