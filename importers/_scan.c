/* Fast tokenizer for whitespace-separated text tables (vmstat, iostat, mpstat ...).
 *
 * One pass over a chunk of complete lines. For every line it records its byte span and the range of
 * its tokens; for every token its byte span, a 64-bit FNV-1a hash (to group labels such as device
 * names without making a Python object per row; numbers after the third token of a line get 0), whether
 * it is a plain decimal number and its value.
 * The caller allocates the output buffers (numpy arrays) and owns all policy; this file only scans.
 * importers/_tokens.py holds the pure-Python twin used when this module is not compiled and as the
 * reference in tests: both must produce identical arrays.
 *
 * Numbers: optional sign, digits, optional decimal separator ('.' or ',' as the caller says) and
 * digits. Up to 15 digits the mantissa and 10^k are exact doubles, so mantissa / 10^k is correctly
 * rounded and equal to Python's float(); longer ones are flagged kind 2 and Python parses them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define KIND_TEXT 0
#define KIND_NUMBER 1
#define KIND_SLOW_NUMBER 2

static const double POW10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

static unsigned char SPACE[256];
static unsigned char STOP[256]; /* SPACE and '\n': where a token ends */
static unsigned char NOT_PLAIN[256]; /* '+', ',', '-', '.': see plain_rows */

#define HASHED_LEADING 4

static inline uint64_t fnv1a(const unsigned char *p, const unsigned char *end) {
    uint64_t h = UINT64_C(1469598103934665603);
    for (; p < end; p++) h = (h ^ *p) * UINT64_C(1099511628211);
    return h;
}

/* Reads the run of ASCII digits from s[i] into *mant (*mant * 10^k + their value: it wraps past 19 digits, which the
 * caller never uses) and returns where the run ends. A byte at a time: runs are short (counters, `12.34`), and an
 * eight-byte (SWAR) variant measured slower on sar and iostat captures, faster only on long counters. */
static inline Py_ssize_t digit_run(const unsigned char *s, Py_ssize_t i, const Py_ssize_t n, uint64_t *mant) {
    uint64_t m = *mant;
    for (; i < n && (unsigned)(s[i] - '0') < 10u; i++) m = m * 10 + (uint64_t)(s[i] - '0');
    *mant = m;
    return i;
}

static void init_tables(void) {
    SPACE[' '] = SPACE['\t'] = SPACE['\r'] = SPACE['\v'] = SPACE['\f'] = 1;
    memcpy(STOP, SPACE, sizeof STOP);
    STOP['\n'] = 1;
    NOT_PLAIN['+'] = NOT_PLAIN[','] = NOT_PLAIN['-'] = NOT_PLAIN['.'] = 1;
}

typedef struct {
    Py_buffer b;
    int held;
} Buf;

static int get_buf(PyObject *obj, Buf *buf, int writable, Py_ssize_t itemsize, const char *name) {
    if (PyObject_GetBuffer(obj, &buf->b, writable ? (PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) : PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    buf->held = 1;
    if (buf->b.itemsize != itemsize && itemsize != 1) {
        PyErr_Format(PyExc_TypeError, "%s: expected items of %zd bytes", name, itemsize);
        return -1;
    }
    return 0;
}

/* tokenize(data, decimal, line_start, line_end, line_numeric, tok_first, tok_start, tok_end, tok_val, tok_kind,
 *          tok_hash) -> (n_lines, n_tokens), or (-1, -1) when an output buffer is too small (the caller grows
 * it and retries). Types: int64 except tok_val float64, tok_kind uint8, tok_hash uint64. line_numeric counts
 * the numeric tokens of each line. Lines are separated by '\n'; a final line without '\n' is scanned too.
 * One pass over the lines; a token's number syntax is read in the same pass (digit runs in tight loops), its
 * hash (when it gets one) in a second loop over its bytes. */
static PyObject *tokenize(PyObject *self, PyObject *args) {
    PyObject *objs[10];
    int decimal;
    if (!PyArg_ParseTuple(args, "OiOOOOOOOOO", &objs[0], &decimal, &objs[1], &objs[2], &objs[3], &objs[4], &objs[5],
                          &objs[6], &objs[7], &objs[8], &objs[9]))
        return NULL;
    Buf data = {0}, ls = {0}, le = {0}, ln = {0}, tf = {0}, ts = {0}, te = {0}, tv = {0}, tk = {0}, th = {0};
    Buf *outs[9] = {&ls, &le, &ln, &tf, &ts, &te, &tv, &tk, &th};
    const Py_ssize_t sizes[9] = {8, 8, 8, 8, 8, 8, 8, 1, 8};
    const char *names[9] = {"line_start", "line_end", "line_numeric", "tok_first", "tok_start",
                            "tok_end",    "tok_val",  "tok_kind",     "tok_hash"};
    PyObject *result = NULL;
    if (get_buf(objs[0], &data, 0, 1, "data") < 0) goto done;
    for (int i = 0; i < 9; i++)
        if (get_buf(objs[i + 1], outs[i], 1, sizes[i], names[i]) < 0) goto done;
    {
        const unsigned char *s = (const unsigned char *)data.b.buf;
        const Py_ssize_t n = data.b.len;
        int64_t *line_start = ls.b.buf, *line_end = le.b.buf, *line_num = ln.b.buf, *tok_first = tf.b.buf;
        int64_t *tok_start = ts.b.buf, *tok_end = te.b.buf;
        double *tok_val = tv.b.buf;
        uint8_t *tok_kind = tk.b.buf;
        uint64_t *tok_hash = th.b.buf;
        const Py_ssize_t line_cap = le.b.len / 8;
        const Py_ssize_t tok_cap = ts.b.len / 8;
        const unsigned char dec = (unsigned char)decimal;
        Py_ssize_t nl = 0, nt = 0, i = 0;
        int overflow = 0;
        if (ls.b.len / 8 < line_cap || ln.b.len / 8 < line_cap || tf.b.len / 8 < line_cap + 1 ||
            te.b.len / 8 < tok_cap || tv.b.len / 8 < tok_cap || tk.b.len < tok_cap || th.b.len / 8 < tok_cap) {
            PyErr_SetString(PyExc_ValueError, "output buffers of inconsistent sizes");
            goto done;
        }
        Py_BEGIN_ALLOW_THREADS
        while (i < n) {
            if (nl >= line_cap) { overflow = 1; break; }
            const Py_ssize_t start = i;
            int64_t numeric = 0;
            line_start[nl] = start;
            tok_first[nl] = nt;
            for (;;) {
                while (i < n && SPACE[s[i]]) i++;
                if (i >= n || s[i] == '\n') break;
                if (nt >= tok_cap) { overflow = 1; break; }
                const Py_ssize_t t0 = i;
                uint64_t mant = 0;
                int digits = 0, frac = 0, is_num = 1, neg = 0;
                unsigned char c = s[i];
                if (c == '-' || c == '+') {
                    neg = (c == '-');
                    i++;
                }
                /* A number is digits, at most one separator, digits (at least one digit in all): each run of
                 * digits is read in its own tight loop (most bytes of a monitor's output are digits), and anything
                 * else before the next blank makes the token text. The mantissa takes every digit: past 15 it is
                 * not used (kind 2), so its wrapping around past 19 does not matter. */
                const Py_ssize_t d0 = i;
                i = digit_run(s, i, n, &mant);
                digits = (int)(i - d0);
                if (i < n && s[i] == dec) {
                    const Py_ssize_t f0 = ++i;
                    i = digit_run(s, i, n, &mant);
                    frac = (int)(i - f0);
                    digits += frac;
                }
                for (; i < n && !STOP[s[i]]; i++) is_num = 0;
                tok_start[nt] = t0;
                tok_end[nt] = i;
                is_num = is_num && digits > 0;
                /* Hashes are compared for labels and header words only: the first tokens of a line
                 * (time, AM/PM or the rest of a ko_KR time, device, CPU) and text tokens. Other numbers get 0
                 * and cost nothing. */
                tok_hash[nt] = (!is_num || nt - tok_first[nl] < HASHED_LEADING) ? fnv1a(s + t0, s + i) : 0;
                if (!is_num) {
                    tok_kind[nt] = KIND_TEXT;
                    tok_val[nt] = Py_NAN;
                } else if (digits > 15) {
                    /* mant / 10^k is exact only up to 15 digits: Python parses the rest */
                    tok_kind[nt] = KIND_SLOW_NUMBER;
                    tok_val[nt] = Py_NAN;
                    numeric++;
                } else {
                    double v = (double)mant / POW10[frac];
                    tok_kind[nt] = KIND_NUMBER;
                    tok_val[nt] = neg ? -v : v;
                    numeric++;
                }
                nt++;
            }
            if (overflow) break;
            Py_ssize_t e = i;
            if (e > start && s[e - 1] == '\r') e--;
            line_end[nl] = e;
            line_num[nl] = numeric;
            nl++;
            if (i < n) i++; /* skip '\n' */
        }
        if (!overflow) tok_first[nl] = nt;
        Py_END_ALLOW_THREADS
        result = overflow ? Py_BuildValue("(nn)", (Py_ssize_t)-1, (Py_ssize_t)-1) : Py_BuildValue("(nn)", nl, nt);
    }
done:
    if (data.held) PyBuffer_Release(&data.b);
    for (int i = 0; i < 9; i++)
        if (outs[i]->held) PyBuffer_Release(&outs[i]->b);
    return result;
}

/* gather_rows(tok_first, rows, start, ncols, val, out): out[i, :] = val[tok_first[rows[i]] + start : + ncols].
 * Each row's values are contiguous in the token arrays, so this is one memcpy per row. The caller has
 * checked that every row has at least start + ncols tokens. */
static PyObject *gather_rows(PyObject *self, PyObject *args) {
    PyObject *o_first, *o_rows, *o_val, *o_out;
    Py_ssize_t start, ncols;
    if (!PyArg_ParseTuple(args, "OOnnOO", &o_first, &o_rows, &start, &ncols, &o_val, &o_out)) return NULL;
    Buf first = {0}, rows = {0}, val = {0}, out = {0};
    PyObject *result = NULL;
    if (get_buf(o_first, &first, 0, 8, "tok_first") < 0 || get_buf(o_rows, &rows, 0, 8, "rows") < 0 ||
        get_buf(o_val, &val, 0, 8, "val") < 0 || get_buf(o_out, &out, 1, 8, "out") < 0)
        goto done;
    {
        const int64_t *f = first.b.buf, *r = rows.b.buf;
        const double *v = val.b.buf;
        double *o = out.b.buf;
        const Py_ssize_t nrows = rows.b.len / 8, nfirst = first.b.len / 8, nval = val.b.len / 8;
        if (ncols < 0 || start < 0 || out.b.len / 8 < nrows * ncols) {
            PyErr_SetString(PyExc_ValueError, "gather_rows: bad sizes");
            goto done;
        }
        for (Py_ssize_t i = 0; i < nrows; i++) {
            if (r[i] < 0 || r[i] >= nfirst || f[r[i]] + start + ncols > nval) {
                PyErr_SetString(PyExc_IndexError, "gather_rows: row outside the token arrays");
                goto done;
            }
        }
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < nrows; i++) memcpy(o + i * ncols, v + f[r[i]] + start, (size_t)ncols * sizeof(double));
        Py_END_ALLOW_THREADS
        Py_INCREF(Py_None);
        result = Py_None;
    }
done:
    if (first.held) PyBuffer_Release(&first.b);
    if (rows.held) PyBuffer_Release(&rows.b);
    if (val.held) PyBuffer_Release(&val.b);
    if (out.held) PyBuffer_Release(&out.b);
    return result;
}

/* 1 when a byte of s[a:b) is '+', ',', '-' or '.' (0x2B-0x2E). Eight bytes at a time, no branch per byte: the
 * high bit of a byte of `hit` is set when 0x2A < byte < 0x2F and the byte is ASCII ("hasbetween", Bit Twiddling
 * Hacks: each byte's sums stay within it, no carry reaches the next); the last bytes through the table. */
static inline unsigned char not_plain(const unsigned char *s, int64_t a, int64_t b) {
    const uint64_t ones = UINT64_C(0x0101010101010101), low7 = ones * 127;
    uint64_t hit = 0;
    int64_t j = a;
    for (; j + 8 <= b; j += 8) {
        uint64_t x;
        memcpy(&x, s + j, 8);
        const uint64_t y = x & low7;
        hit |= (ones * (127 + 0x2F) - y) & ~x & (y + ones * (127 - 0x2A));
    }
    unsigned char odd = (hit & (ones * 128)) != 0;
    for (; j < b; j++) odd |= NOT_PLAIN[s[j]];
    return odd;
}

/* plain_rows(data, tok_first, tok_start, line_end, rows, skip, out): out[i] = 1 when no '+', ',', '-' or '.'
 * lies between the first token of line rows[i] and the line's end, token `skip` of the line (and the blanks
 * after it) excepted; else 0. The scanner took such tokens as numbers: without those bytes they are digits
 * only (a counter, not a signed or decimal number). The caller has checked each row has skip + 2 tokens. */
static PyObject *plain_rows(PyObject *self, PyObject *args) {
    PyObject *o_data, *o_first, *o_start, *o_end, *o_rows, *o_out;
    Py_ssize_t skip;
    if (!PyArg_ParseTuple(args, "OOOOOnO", &o_data, &o_first, &o_start, &o_end, &o_rows, &skip, &o_out)) return NULL;
    Buf data = {0}, first = {0}, start = {0}, end = {0}, rows = {0}, out = {0};
    PyObject *result = NULL;
    if (get_buf(o_data, &data, 0, 1, "data") < 0 || get_buf(o_first, &first, 0, 8, "tok_first") < 0 ||
        get_buf(o_start, &start, 0, 8, "tok_start") < 0 || get_buf(o_end, &end, 0, 8, "line_end") < 0 ||
        get_buf(o_rows, &rows, 0, 8, "rows") < 0 || get_buf(o_out, &out, 1, 1, "out") < 0)
        goto done;
    {
        const unsigned char *s = data.b.buf;
        const int64_t *f = first.b.buf, *ts = start.b.buf, *le = end.b.buf, *r = rows.b.buf;
        uint8_t *o = out.b.buf;
        const Py_ssize_t nrows = rows.b.len / 8, nlines = end.b.len / 8, ntok = start.b.len / 8;
        if (skip < 0 || out.b.len < nrows || first.b.len / 8 < nlines + 1) {
            PyErr_SetString(PyExc_ValueError, "plain_rows: bad sizes");
            goto done;
        }
        for (Py_ssize_t i = 0; i < nrows; i++) {
            if (r[i] < 0 || r[i] >= nlines || f[r[i]] + skip + 1 >= ntok || f[r[i]] + skip + 1 >= f[r[i] + 1] ||
                ts[f[r[i]]] < 0 || le[r[i]] > data.b.len) {
                PyErr_SetString(PyExc_IndexError, "plain_rows: row outside the token arrays");
                goto done;
            }
        }
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < nrows; i++) {
            const int64_t t = f[r[i]];
            const int64_t a = ts[t], b = ts[t + skip], c = ts[t + skip + 1], e = le[r[i]];
            o[i] = !(not_plain(s, a, b) | not_plain(s, c, e));
        }
        Py_END_ALLOW_THREADS
        Py_INCREF(Py_None);
        result = Py_None;
    }
done:
    if (data.held) PyBuffer_Release(&data.b);
    if (first.held) PyBuffer_Release(&first.b);
    if (start.held) PyBuffer_Release(&start.b);
    if (end.held) PyBuffer_Release(&end.b);
    if (rows.held) PyBuffer_Release(&rows.b);
    if (out.held) PyBuffer_Release(&out.b);
    return result;
}

static PyMethodDef methods[] = {
    {"tokenize", tokenize, METH_VARARGS, "Scan complete lines into token arrays (see importers/_tokens.py)."},
    {"gather_rows", gather_rows, METH_VARARGS, "Copy each row's run of values (see importers/_tokens.py)."},
    {"plain_rows", plain_rows, METH_VARARGS, "Rows whose numbers are digits only (see importers/_tokens.py)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_scan", "Compiled tokenizer core of benchlens importers.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__scan(void) {
    init_tables();
    return PyModule_Create(&module);
}
