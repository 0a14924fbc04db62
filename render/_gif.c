/* The LZW data of one GIF frame, as the difference from the frame before.
 *
 * render/replay.py writes an animated GIF whose frames after the first are the
 * rectangle that changed, the pixels that did not change being the transparent
 * index.  Pillow's GIF writer takes about 5 ns a pixel of that rectangle, and the
 * rectangle of a replay frame is most of the frame (the panels, the board and the
 * caption all change): the encoding cost three times the drawing.  This module
 * does the same job in one pass and treats a run of one index as a run (the
 * unchanged pixels, a panel's new colour): the greedy LZW encoder's walk along
 * the dictionary's chain of strings of that index (c, cc, ccc ...) is taken in
 * one step per code emitted, not one per pixel.
 *
 * The code stream is the one giflib's encoder writes (EGifCompressLine): a clear
 * code first, a greedy longest match, a new code after each emitted code, the code
 * width raised once the next code no longer fits, a clear code when the table is
 * full (4095), the end code last; the codes packed least significant bit first in
 * sub-blocks of at most 255 bytes.  render/replay.py falls back to Pillow's
 * encoder when this extension is not built; tests/render/test_gif_encoder.py
 * decodes both with Pillow and compares every pixel.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CODE 4095
#define HASH_BITS 15
#define HASH_SIZE (1 << HASH_BITS)
#define CHAIN (MAX_CODE + 2)
#define EMPTY 0xFFFFFFFFu

typedef struct {
    /* the dictionary: (prefix << 8 | pixel) -> code, open addressing; an entry is
       key << 12 | code (a key has 20 bits, a code 12), EMPTY where there is none */
    uint32_t slots[HASH_SIZE];
    /* runlen[c], runcol[c]: code c stands for runlen[c] pixels of index runcol[c]
       (every literal is a run of 1; 0 for a code of mixed pixels) */
    uint16_t runlen[MAX_CODE + 2];
    uint8_t runcol[MAX_CODE + 2];
    /* the child looked up or added last for each code: pixel + 1 (0: none), code */
    uint16_t lastpix[MAX_CODE + 2];
    uint16_t lastchild[MAX_CODE + 2];
    /* chain[i * CHAIN + k]: the code of k pixels of index i, for k <= chain_max[i]
       (contiguous: the greedy encoder adds i^(k+1) only after i^k); allocated apart,
       its entries above chain_max never read */
    uint16_t *chain;
    int chain_max[256];
    int clear, eoi, running, bits, max1, min_bits;
    int crnt; /* the string matched so far (-1 before the first pixel) */
    /* the packed codes, before they are cut into sub-blocks */
    uint8_t *out;
    size_t len, cap;
    uint64_t acc;
    int nacc;
    int failed;
} Lzw;

/* Room for ``more`` bytes of codes; 0, or -1 (out of memory: nothing more is written). */
static int reserve(Lzw *z, size_t more) {
    if (z->failed)
        return -1;
    if (z->len + more <= z->cap)
        return 0;
    size_t cap = z->cap ? z->cap : 65536;
    while (cap < z->len + more)
        cap *= 2;
    uint8_t *p = realloc(z->out, cap);
    if (!p) {
        z->failed = 1;
        return -1;
    }
    z->out = p;
    z->cap = cap;
    return 0;
}

/* A byte of codes, in the room reserved. */
static inline void put_byte(Lzw *z, uint8_t b) {
    z->out[z->len++] = b;
}

static inline void output(Lzw *z, int code) {
    z->acc |= (uint64_t)code << z->nacc;
    z->nacc += z->bits;
    while (z->nacc >= 8) {
        put_byte(z, (uint8_t)(z->acc & 0xFF));
        z->acc >>= 8;
        z->nacc -= 8;
    }
    /* giflib: a code that no longer fits raises the width (not for the special
       signalling above 4095) */
    if (z->running >= z->max1 && code <= MAX_CODE) {
        z->bits++;
        z->max1 = 1 << z->bits;
    }
}

static void reset(Lzw *z) {
    memset(z->lastpix, 0, sizeof z->lastpix);
    memset(z->slots, 0xFF, sizeof z->slots);
    z->running = z->eoi + 1;
    z->bits = z->min_bits + 1;
    z->max1 = 1 << z->bits;
    for (int i = 0; i < 256; i++) {
        z->chain_max[i] = 1;
        z->chain[i * CHAIN + 1] = (uint16_t)i;
    }
}

/* How many bytes from a[0] on equal b's (at most n), 8 at a time. */
static inline size_t same(const uint8_t *a, const uint8_t *b, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y)
            return i + (size_t)(__builtin_ctzll(x ^ y) >> 3);
    }
    while (i < n && a[i] == b[i])
        i++;
    return i;
}

/* How many bytes up to a[n-1] (backwards) equal b's, 8 at a time. */
static inline size_t same_back(const uint8_t *a, const uint8_t *b, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + n - i - 8, 8);
        memcpy(&y, b + n - i - 8, 8);
        if (x != y)
            return i + (size_t)(__builtin_clzll(x ^ y) >> 3);
    }
    while (i < n && a[n - i - 1] == b[n - i - 1])
        i++;
    return i;
}

/* How many bytes from p[0] on are ``v`` (at most n), 8 at a time. */
static inline size_t run_of(const uint8_t *p, uint8_t v, size_t n) {
    const uint64_t pattern = 0x0101010101010101ull * v;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, p + i, 8);
        if (x != pattern)
            return i + (size_t)(__builtin_ctzll(x ^ pattern) >> 3);
    }
    while (i < n && p[i] == v)
        i++;
    return i;
}

static inline uint32_t slot_of(int32_t key) {
    return ((uint32_t)key * 2654435761u) >> (32 - HASH_BITS);
}

static inline int lookup(const Lzw *z, int32_t key) {
    uint32_t s = slot_of(key);
    for (;;) {
        uint32_t e = z->slots[s];
        if (e == EMPTY)
            return -1;
        if ((e >> 12) == (uint32_t)key)
            return (int)(e & 0xFFF);
        s = (s + 1) & (HASH_SIZE - 1);
    }
}

/* After ``prefix`` was emitted and ``pixel`` did not extend it: the next code, or a
   clear code when the table is full (giflib's order). */
static inline void grow(Lzw *z, int prefix, int pixel) {
    if (z->running >= MAX_CODE) {
        output(z, z->clear);
        reset(z);
        return;
    }
    int32_t key = (prefix << 8) | pixel;
    uint32_t s = slot_of(key);
    while (z->slots[s] != EMPTY)
        s = (s + 1) & (HASH_SIZE - 1);
    int code = z->running++;
    z->slots[s] = (uint32_t)key << 12 | (uint32_t)code;
    z->lastpix[prefix] = (uint16_t)(pixel + 1);
    z->lastchild[prefix] = (uint16_t)code;
    int run = (z->runlen[prefix] && z->runcol[prefix] == pixel) ? z->runlen[prefix] + 1 : 0;
    z->runlen[code] = (uint16_t)run;
    z->runcol[code] = (uint8_t)pixel;
    if (run) { /* the chain is contiguous: run == chain_max + 1 */
        z->chain[pixel * CHAIN + run] = (uint16_t)code;
        z->chain_max[pixel] = run;
    }
}

/* The encoder's start: the tables and the clear code. */
static void begin(Lzw *z) {
    memset(z->runlen, 0, sizeof z->runlen);
    for (int i = 0; i < 256; i++) {
        z->runlen[i] = 1;
        z->runcol[i] = (uint8_t)i;
    }
    reset(z);
    if (reserve(z, 16) == 0)
        output(z, z->clear);
    z->crnt = -1;
}

/* Encode the next ``n`` pixels (a row of the box: the string being matched, crnt,
   goes on across rows, so the codes are those of the whole box in one piece). */
static void encode(Lzw *z, const uint8_t *px, size_t n) {
    /* at most a code (12 bits) for each pixel, and a clear code for each 4000 */
    if (reserve(z, 2 * n + 16) < 0)
        return;
    size_t i = 0;
    int crnt = z->crnt;
    if (crnt < 0 && n) {
        crnt = px[0];
        i = 1;
    }
    while (i < n) {
        int pixel = px[i];
        if (z->runlen[crnt] && z->runcol[crnt] == pixel) {
            /* crnt is a run of this index and the run goes on: count it */
            size_t j = i + 1 + run_of(px + i + 1, (uint8_t)pixel, n - i - 1);
            size_t total = (size_t)z->runlen[crnt] + (j - i);
            const uint16_t *chain = z->chain + pixel * CHAIN;
            for (;;) {
                size_t m = (size_t)z->chain_max[pixel];
                if (total <= m) {
                    crnt = chain[total];
                    break;
                }
                /* the longest run known, then a pixel of the run it cannot take */
                int longest = chain[m];
                output(z, longest);
                grow(z, longest, pixel);
                total -= m;
            }
            i = j;
            continue;
        }
        int next;
        if (z->lastpix[crnt] == pixel + 1) {
            next = z->lastchild[crnt];
        } else {
            next = lookup(z, (crnt << 8) | pixel);
            if (next >= 0) {
                z->lastpix[crnt] = (uint16_t)(pixel + 1);
                z->lastchild[crnt] = (uint16_t)next;
            }
        }
        if (next >= 0) {
            crnt = next;
        } else {
            output(z, crnt);
            grow(z, crnt, pixel);
            crnt = pixel;
        }
        i++;
    }
    z->crnt = crnt;
}

/* The last code, the end code, the last bits; returns 0 or -1 (out of memory). */
static int end(Lzw *z) {
    if (reserve(z, 16) < 0)
        return -1;
    output(z, z->crnt);
    output(z, z->eoi);
    if (z->nacc > 0) {
        put_byte(z, (uint8_t)(z->acc & 0xFF));
        z->acc = 0;
        z->nacc = 0;
    }
    return z->failed ? -1 : 0;
}

static PyObject *blocks(const Lzw *z, int min_bits) {
    size_t nblocks = (z->len + 254) / 255;
    size_t size = 1 + z->len + nblocks + 1;
    PyObject *res = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (!res)
        return NULL;
    uint8_t *p = (uint8_t *)PyBytes_AS_STRING(res);
    *p++ = (uint8_t)min_bits;
    for (size_t pos = 0; pos < z->len; pos += 255) {
        size_t k = z->len - pos < 255 ? z->len - pos : 255;
        *p++ = (uint8_t)k;
        memcpy(p, z->out + pos, k);
        p += k;
    }
    *p = 0;
    return res;
}

PyDoc_STRVAR(frame_doc,
"frame(current, previous, width, height, transparent) -> (x0, y0, x1, y1, data) | None\n\n"
"The GIF image data of one frame of ``width`` x ``height`` palette indices (bytes, row\n"
"by row) after ``previous`` (the same size, or None for a first frame): the box of the\n"
"pixels that differ (x1, y1 exclusive) and its LZW data (code size 8, sub-blocks,\n"
"terminator), the pixels of the box that did not change written as ``transparent``.\n"
"None when nothing differs.  A first frame is the whole picture as it is.");

static PyObject *frame(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer cur, prev = {0};
    PyObject *prev_obj;
    Py_ssize_t width, height;
    int transparent;
    if (!PyArg_ParseTuple(args, "y*Onni", &cur, &prev_obj, &width, &height, &transparent))
        return NULL;
    PyObject *result = NULL;
    uint8_t *row = NULL;
    Lzw *z = NULL;
    int have_prev = prev_obj != Py_None;
    if (have_prev && PyObject_GetBuffer(prev_obj, &prev, PyBUF_SIMPLE) < 0)
        goto done;
    if (width <= 0 || height <= 0 || width > 65535 || height > 65535
        || cur.len != width * height || (have_prev && prev.len != cur.len)
        || transparent < 0 || transparent > 255) {
        PyErr_SetString(PyExc_ValueError,
                        "frame: the pictures must be width x height bytes, 1..65535 a side, "
                        "and the transparent index 0..255");
        goto done;
    }
    const uint8_t *c = cur.buf;
    const uint8_t *p = have_prev ? prev.buf : NULL;
    Py_ssize_t x0 = 0, y0 = 0, x1 = width, y1 = height;
    if (p) {
        Py_ssize_t y, x;
        for (y0 = 0; y0 < height && !memcmp(c + y0 * width, p + y0 * width, width); y0++)
            ;
        if (y0 == height) {
            result = Py_NewRef(Py_None);
            goto done;
        }
        for (y1 = height; !memcmp(c + (y1 - 1) * width, p + (y1 - 1) * width, width); y1--)
            ;
        x0 = width;
        x1 = 0;
        for (y = y0; y < y1; y++) {
            const uint8_t *cr = c + y * width, *pr = p + y * width;
            x = (Py_ssize_t)same(cr, pr, (size_t)x0);
            if (x < x0)
                x0 = x;
            x = width - (Py_ssize_t)same_back(cr + x1, pr + x1, (size_t)(width - x1));
            if (x > x1)
                x1 = x;
        }
    }
    size_t w = (size_t)(x1 - x0), h = (size_t)(y1 - y0);
    row = malloc(w);
    z = calloc(1, sizeof *z);
    if (z)
        z->chain = malloc(sizeof(uint16_t) * 256 * CHAIN);
    if (!row || !z || !z->chain) {
        PyErr_NoMemory();
        goto done;
    }
    const uint8_t tb = (uint8_t)transparent;
    z->min_bits = 8;
    z->clear = 256;
    z->eoi = 257;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    begin(z);
    /* a row of the box at a time, its unchanged pixels made transparent (a row in
       the cache, not the whole box in memory) */
    for (size_t y = 0; y < h; y++) {
        const uint8_t *cr = c + (y0 + (Py_ssize_t)y) * width + x0;
        if (p) {
            const uint8_t *pr = p + (y0 + (Py_ssize_t)y) * width + x0;
            for (size_t x = 0; x < w; x++)
                row[x] = cr[x] == pr[x] ? tb : cr[x];
            encode(z, row, w);
        } else {
            encode(z, cr, w);
        }
    }
    rc = end(z);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *data = blocks(z, 8);
    if (data)
        result = Py_BuildValue("nnnnN", x0, y0, x1, y1, data);
done:
    if (z) {
        free(z->out);
        free(z->chain);
    }
    free(z);
    free(row);
    if (have_prev && prev.obj)
        PyBuffer_Release(&prev);
    PyBuffer_Release(&cur);
    return result;
}

static PyMethodDef methods[] = {
    {"frame", frame, METH_VARARGS, frame_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "render._gif",
    "One GIF frame's LZW data, as the difference from the frame before (see _gif.c).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__gif(void) { return PyModule_Create(&module); }
