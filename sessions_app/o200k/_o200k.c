/* Fast o200k_base token counter: the same count as len(tiktoken encode_ordinary(text)).
 *
 * tiktoken splits text with a Rust regex and byte-pair-merges each piece; that costs ~16 MB/s,
 * which made token counting the bottleneck of the session importer. Counting needs neither the
 * token ids nor a general regex engine: this file hand-codes the o200k split pattern as a scanner
 * over the UTF-8 bytes and counts BPE parts with a C hash table of the vocabulary.
 *
 * Any text the scanner cannot be sure about (a code point whose Unicode class may differ from the
 * tables tiktoken was built with, or a str that is not valid UTF-8) counts as -1, "unsure", and the
 * Python side asks tiktoken instead.
 *
 * The split pattern, tried leftmost-first at each position with backtracking:
 *   1  [^\r\n\p{L}\p{N}]?[UPPER]*[LOWER]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
 *   2  [^\r\n\p{L}\p{N}]?[UPPER]+[LOWER]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
 *   3  \p{N}{1,3}
 *   4   ?[^\s\p{L}\p{N}]+[\r\n/]*
 *   5  \s*[\r\n]+
 *   6  \s+(?!\S)
 *   7  \s+
 * with UPPER = Lu|Lt|Lm|Lo|M and LOWER = Ll|Lm|Lo|M.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_o200k_unicode.h"

/* Bits beyond the generated ones: \r or \n (only ASCII, so set on the ASCII table here), and the
 * class reported past the end of the text, which has no other bit so every class test fails. */
#define C_CRLF 0x40
#define C_END 0x80

#define C_L O200K_L
#define C_UPPER O200K_UPPER
#define C_LOWER O200K_LOWER
#define C_N O200K_N
#define C_SPACE O200K_SPACE
#define C_UNKNOWN O200K_UNKNOWN

/* Classes of the BMP, expanded from the range table at import: most non-ASCII text is in the BMP,
 * and a byte lookup beats a binary search. Read-only after module init. */
static uint8_t bmp_classes[0x10000];

static uint8_t
classes_by_search(uint32_t cp)
{
    size_t lo = 0, hi = O200K_RANGE_COUNT;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp < o200k_ranges[mid].first)
            hi = mid;
        else if (cp > o200k_ranges[mid].last)
            lo = mid + 1;
        else
            return o200k_ranges[mid].classes;
    }
    return 0;
}

static void
fill_bmp_classes(void)
{
    memset(bmp_classes, 0, sizeof bmp_classes);
    for (size_t i = 0; i < O200K_RANGE_COUNT; i++) {
        uint32_t first = o200k_ranges[i].first, last = o200k_ranges[i].last;
        for (uint32_t cp = first; cp <= last && cp < 0x10000; cp++)
            bmp_classes[cp] = o200k_ranges[i].classes;
    }
    bmp_classes['\r'] |= C_CRLF;
    bmp_classes['\n'] |= C_CRLF;
}

/* --- the scanner ------------------------------------------------------------------------------ */

typedef struct {
    const uint8_t *s;
    size_t n;
    int unsure; /* set when an UNKNOWN or undecodable code point was classified */
} Scan;

static uint8_t
classes_slow(Scan *sc, size_t i, size_t *len)
{
    const uint8_t *s = sc->s;
    size_t n = sc->n;
    uint8_t b = s[i];
    uint32_t cp;
    size_t need;
    /* CPython hands us valid UTF-8; anything else is "unsure", never a read past the end. */
    if (b < 0xC2 || b >= 0xF5)
        goto bad;
    need = b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    if (need > n - i)
        goto bad;
    cp = b & (0x7F >> need);
    for (size_t k = 1; k < need; k++) {
        uint8_t c = s[i + k];
        if ((c & 0xC0) != 0x80)
            goto bad;
        cp = (cp << 6) | (c & 0x3F);
    }
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        goto bad;
    *len = need;
    uint8_t cls = cp < 0x10000 ? bmp_classes[cp] : classes_by_search(cp);
    if (cls & C_UNKNOWN)
        sc->unsure = 1;
    return cls;
bad:
    sc->unsure = 1;
    *len = 1;
    return 0;
}

/* Classes of the code point at byte offset i and its UTF-8 length (C_END and 0 at the end). */
static inline uint8_t
classes_at(Scan *sc, size_t i, size_t *len)
{
    if (i >= sc->n) {
        *len = 0;
        return C_END;
    }
    uint8_t b = sc->s[i];
    if (b < 0x80) {
        *len = 1;
        return bmp_classes[b];
    }
    return classes_slow(sc, i, len);
}

/* [^\r\n\p{L}\p{N}] */
static inline int
is_prefix(uint8_t c)
{
    return !(c & (C_L | C_N | C_CRLF | C_END));
}

/* [^\s\p{L}\p{N}] */
static inline int
is_other(uint8_t c)
{
    return !(c & (C_SPACE | C_L | C_N | C_END));
}

/* (?i:'s|'t|'re|'ve|'m|'ll|'d)? at e. Case-insensitive means Unicode simple case folding: besides
 * ASCII case, only U+017F LONG S (UTF-8 C5 BF) folds to one of these letters. */
static size_t
contraction(const Scan *sc, size_t e)
{
    const uint8_t *s = sc->s;
    size_t n = sc->n;
    if (n - e < 2 || s[e] != '\'')
        return e;
    uint8_t a = s[e + 1];
    switch (a) {
    case 's': case 'S': case 't': case 'T': case 'm': case 'M': case 'd': case 'D':
        return e + 2;
    default:
        break;
    }
    if (n - e < 3)
        return e;
    uint8_t b = s[e + 2];
    if (a == 0xC5 && b == 0xBF)
        return e + 3;
    if ((a == 'r' || a == 'R' || a == 'v' || a == 'V') && (b == 'e' || b == 'E'))
        return e + 3;
    if ((a == 'l' || a == 'L') && (b == 'l' || b == 'L'))
        return e + 3;
    return e;
}

/* Alternative 1 after its optional prefix: [UPPER]*[LOWER]+ then a contraction. Returns the end,
 * or 0 when it does not match (a match always ends after s, so 0 is free). */
static size_t
upper_star_lower_plus(Scan *sc, size_t s)
{
    size_t p = s, len, last_lower_end = 0;
    uint8_t c;
    /* [UPPER]* is greedy; remember where the last char that is also LOWER ends, because that is
     * where backtracking lands if no LOWER char follows the run. */
    for (;;) {
        c = classes_at(sc, p, &len);
        if (!(c & C_UPPER))
            break;
        p += len;
        if (c & C_LOWER)
            last_lower_end = p;
    }
    size_t e;
    if (c & C_LOWER) {
        /* [LOWER]+ straight after the whole run (the char at p is Ll). */
        e = p + len;
        for (;;) {
            c = classes_at(sc, e, &len);
            if (!(c & C_LOWER))
                break;
            e += len;
        }
    }
    else if (last_lower_end) {
        /* Backtracking gives [LOWER]+ the run's last LOWER char; the char after it is not LOWER. */
        e = last_lower_end;
    }
    else {
        return 0;
    }
    return contraction(sc, e);
}

/* Alternative 2 after its optional prefix: [UPPER]+[LOWER]* then a contraction; 0 if no match. */
static size_t
upper_plus_lower_star(Scan *sc, size_t s)
{
    size_t p = s, len;
    uint8_t c = classes_at(sc, p, &len);
    if (!(c & C_UPPER))
        return 0;
    while (c & C_UPPER) {
        p += len;
        c = classes_at(sc, p, &len);
    }
    while (c & C_LOWER) {
        p += len;
        c = classes_at(sc, p, &len);
    }
    return contraction(sc, p);
}

/* The ASCII classes below, used by the fast path of next_piece. */
static inline int ascii_upper(uint8_t b) { return b >= 'A' && b <= 'Z'; }
static inline int ascii_lower(uint8_t b) { return b >= 'a' && b <= 'z'; }

/* End of the piece that starts at i (i < n); always > i. */
static size_t
next_piece(Scan *sc, size_t i)
{
    const uint8_t *s = sc->s;
    size_t n = sc->n, len0, len, e, p;

    /* Fast path for 1 and 2 on ASCII words, optionally after one ASCII prefix char. ASCII capitals
     * are UPPER only and small letters LOWER only, so no backtracking can change the split; when the
     * run stops at a non-ASCII byte, which might continue it, the general code below decides. */
    if (s[i] < 0x80) {
        size_t q = i;
        if (is_prefix(bmp_classes[s[i]]))
            q++;
        size_t u = q;
        while (u < n && ascii_upper(s[u]))
            u++;
        size_t w = u;
        while (w < n && ascii_lower(s[w]))
            w++;
        if (w > q && (w == n || s[w] < 0x80))
            return contraction(sc, w);
    }

    uint8_t c0 = classes_at(sc, i, &len0), c;
    int prefix = is_prefix(c0);

    /* 1 and 2, each first with the optional prefix char, then without it. */
    if (prefix && (e = upper_star_lower_plus(sc, i + len0)))
        return e;
    if ((c0 & (C_UPPER | C_LOWER)) && (e = upper_star_lower_plus(sc, i)))
        return e;
    if (prefix && (e = upper_plus_lower_star(sc, i + len0)))
        return e;
    if ((c0 & C_UPPER) && (e = upper_plus_lower_star(sc, i)))
        return e;

    /* 3: one to three numeric chars. */
    if (c0 & C_N) {
        e = i + len0;
        for (int k = 1; k < 3; k++) {
            c = classes_at(sc, e, &len);
            if (!(c & C_N))
                break;
            e += len;
        }
        return e;
    }

    /* 4: optional ASCII space, a run of "other" chars, then [\r\n/]*. */
    int other = 0;
    if (s[i] == ' ') {
        c = classes_at(sc, i + 1, &len);
        other = is_other(c);
        p = i + 1;
    }
    else {
        other = is_other(c0);
        p = i;
    }
    if (other) {
        c = classes_at(sc, p, &len);
        while (is_other(c)) {
            p += len;
            c = classes_at(sc, p, &len);
        }
        while (p < n && (s[p] == '\r' || s[p] == '\n' || s[p] == '/'))
            p++;
        return p;
    }

    /* 5, 6, 7: c0 is whitespace here (every char is a letter, number, whitespace or "other"). */
    size_t last_crlf_end = 0, last_start = i;
    p = i;
    c = c0;
    len = len0;
    while (c & C_SPACE) {
        last_start = p;
        p += len;
        if (c & C_CRLF)
            last_crlf_end = p;
        c = classes_at(sc, p, &len);
    }
    if (last_crlf_end) /* 5: \s* backtracks to the last \r or \n of the run */
        return last_crlf_end;
    if (p >= n) /* 6 at the end of the text */
        return p;
    if (last_start > i) /* 6: give the last whitespace char back, so a non-space follows none */
        return last_start;
    if (p == i) { /* unreachable: every char is a letter, number, whitespace or "other" */
        sc->unsure = 1;
        return i + 1;
    }
    return p; /* 7: a single whitespace char before a non-space */
}

/* --- the vocabulary --------------------------------------------------------------------------- */

#define NO_RANK UINT32_MAX
#define MAX_TOKEN_LEN 255 /* fits the slot's length byte; o200k's longest token is 128 bytes */
#define MAX_RANK 0xFFFFFFu

/* Open addressing with linear probing. The first 8 bytes of the token live in the slot, so
 * tokens of up to 8 bytes (most lookups) are compared without touching the byte arena. */
typedef struct {
    uint64_t head;
    uint32_t offset;      /* into the arena */
    uint32_t len_rank;    /* len << 24 | rank; len 0 marks an empty slot */
} Slot;

typedef struct {
    PyObject_HEAD
    Slot *slots;
    size_t mask;
    int shift; /* 64 - log2(number of slots) */
    uint8_t *arena;
    const uint8_t *arena_end;
    size_t max_len;
    uint32_t *pair_rank; /* 65536 ranks of two-byte tokens: the first BPE step asks for every pair */
    Py_ssize_t size;
    uint64_t id; /* names the owner of a thread's piece cache */
} Counter;

/* The first min(len, 8) bytes as a little-endian number. A single 8-byte load when `end` leaves
 * room for it (the text goes on, or is followed by its own bytes), else byte by byte. */
static inline uint64_t
load_head(const uint8_t *p, size_t len, const uint8_t *end)
{
    uint64_t h = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (end - p >= 8) {
        memcpy(&h, p, 8);
        return len >= 8 ? h : h & ((UINT64_C(1) << (8 * len)) - 1);
    }
#else
    (void)end;
#endif
    size_t k = len < 8 ? len : 8;
    for (size_t j = 0; j < k; j++)
        h |= (uint64_t)p[j] << (8 * j);
    return h;
}

/* Multiplicative hashing: the slot index is the top bits of the product. */
static inline uint64_t
hash_key(const uint8_t *p, size_t len, uint64_t head, const uint8_t *end)
{
    uint64_t h = head ^ ((uint64_t)len << 56);
    for (size_t i = 8; i < len; i += 8) {
        h *= UINT64_C(0x9E3779B97F4A7C15);
        h = (h << 31 | h >> 33) ^ load_head(p + i, len - i, end);
    }
    return h * UINT64_C(0xD6E8FEB86659FD93);
}

/* Rank of p[0:len], whose first 8 bytes are `head` and whose hash_key is `hash`; NO_RANK if none. */
static inline uint32_t
probe(const Counter *c, const uint8_t *p, size_t len, uint64_t head, uint64_t hash, const uint8_t *end)
{
    size_t i = (size_t)(hash >> c->shift);
    for (;;) {
        const Slot *slot = &c->slots[i];
        uint32_t slot_len = slot->len_rank >> 24;
        if (slot_len == 0)
            return NO_RANK;
        if (slot_len == len && slot->head == head) {
            /* Both sides are compared 8 bytes at a time; the arena ends with the last token. */
            const uint8_t *t = c->arena + slot->offset;
            size_t j = 8;
            while (j < len && load_head(t + j, len - j, c->arena_end) == load_head(p + j, len - j, end))
                j += 8;
            if (j >= len)
                return slot->len_rank & MAX_RANK;
        }
        i = (i + 1) & c->mask;
    }
}

/* Rank of the bytes p[0:len], NO_RANK when they are not a token; `end` bounds what may be read. */
static inline uint32_t
lookup(const Counter *c, const uint8_t *p, size_t len, const uint8_t *end)
{
    if (len == 2)
        return c->pair_rank[(size_t)p[0] << 8 | p[1]];
    if (len > c->max_len || len == 0)
        return NO_RANK;
    uint64_t head = load_head(p, len, end);
    return probe(c, p, len, head, hash_key(p, len, head, end), end);
}

/* --- byte-pair merge -------------------------------------------------------------------------- */

/* Both merges repeatedly join the adjacent pair whose bytes have the lowest rank (leftmost on ties)
 * and return how many parts are left. Short pieces use arrays on the stack and a linear scan;
 * long ones (a megabyte of '-' is one piece) a heap, so their cost stays n log n. */
#define SMALL_PIECE 128

static Py_ssize_t
merge_small(const Counter *c, const uint8_t *p, size_t n, const uint8_t *end)
{
    uint32_t start[SMALL_PIECE + 1], rank[SMALL_PIECE];
    size_t parts = n; /* start[0..parts] with start[parts] == n; rank[j] is pair j, j+1 */
    for (size_t j = 0; j < n; j++) {
        start[j] = (uint32_t)j;
        rank[j] = j + 1 < n ? c->pair_rank[(size_t)p[j] << 8 | p[j + 1]] : NO_RANK;
    }
    start[n] = (uint32_t)n;
    while (parts > 1) {
        uint32_t best = NO_RANK;
        size_t at = 0;
        for (size_t j = 0; j + 1 < parts; j++) {
            if (rank[j] < best) {
                best = rank[j];
                at = j;
            }
        }
        if (best == NO_RANK)
            break;
        /* Drop the boundary between parts `at` and `at + 1`. */
        for (size_t j = at + 1; j < parts; j++) /* pieces are short: a loop beats memmove calls */
            start[j] = start[j + 1];
        for (size_t j = at + 1; j + 1 < parts; j++)
            rank[j] = rank[j + 1];
        parts--;
        rank[at] = at + 1 < parts ? lookup(c, p + start[at], start[at + 2] - start[at], end) : NO_RANK;
        if (at > 0)
            rank[at - 1] = lookup(c, p + start[at - 1], start[at + 1] - start[at - 1], end);
    }
    return (Py_ssize_t)parts;
}

static inline void
heap_push(uint64_t *heap, size_t *size, uint64_t key)
{
    size_t i = (*size)++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (heap[up] <= key)
            break;
        heap[i] = heap[up];
        i = up;
    }
    heap[i] = key;
}

static inline void
heap_sift_down(uint64_t *heap, size_t size, size_t i)
{
    uint64_t key = heap[i];
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= size)
            break;
        if (child + 1 < size && heap[child + 1] < heap[child])
            child++;
        if (heap[child] >= key)
            break;
        heap[i] = heap[child];
        i = child;
    }
    heap[i] = key;
}

/* Parts are named by their first byte offset, which never changes when a part absorbs its right
 * neighbour; heap keys are rank << 32 | offset, so the minimum is the lowest rank, leftmost.
 * Entries go stale when a part's pair changes; a popped key counts only if it still matches. */
static Py_ssize_t
merge_large(const Counter *c, const uint8_t *p, size_t n, const uint8_t *end)
{
    if (n >= UINT32_MAX || n > SIZE_MAX / (3 * sizeof(uint64_t)))
        return -1; /* offsets are 32-bit; such a text goes to tiktoken */
    uint32_t *next = PyMem_RawMalloc(n * sizeof(uint32_t));
    uint32_t *prev = PyMem_RawMalloc(n * sizeof(uint32_t));
    uint32_t *pair = PyMem_RawMalloc(n * sizeof(uint32_t)); /* current rank of the pair at a part */
    /* n - 1 initial pairs, at most two new ones per merge and at most n - 1 merges. */
    uint64_t *heap = PyMem_RawMalloc(3 * n * sizeof(uint64_t));
    Py_ssize_t parts = -1;
    if (!next || !prev || !pair || !heap)
        goto done;
    size_t size = 0;
    for (size_t j = 0; j < n; j++) {
        next[j] = (uint32_t)(j + 1);
        prev[j] = (uint32_t)(j ? j - 1 : 0);
        pair[j] = j + 1 < n ? c->pair_rank[(size_t)p[j] << 8 | p[j + 1]] : NO_RANK;
        if (pair[j] != NO_RANK)
            heap[size++] = (uint64_t)pair[j] << 32 | j;
    }
    for (size_t j = size / 2; j-- > 0;)
        heap_sift_down(heap, size, j);
    parts = (Py_ssize_t)n;
    while (size > 0) {
        uint64_t key = heap[0];
        heap[0] = heap[--size];
        if (size)
            heap_sift_down(heap, size, 0);
        uint32_t at = (uint32_t)key, r = (uint32_t)(key >> 32);
        if (pair[at] != r)
            continue; /* stale */
        uint32_t gone = next[at], after = next[gone]; /* `at` absorbs `gone` */
        pair[gone] = NO_RANK;
        next[at] = after;
        if (after < n)
            prev[after] = at;
        parts--;
        pair[at] = after < n ? lookup(c, p + at, next[after] - at, end) : NO_RANK;
        if (pair[at] != NO_RANK)
            heap_push(heap, &size, (uint64_t)pair[at] << 32 | at);
        if (at > 0) {
            uint32_t before = prev[at];
            pair[before] = lookup(c, p + before, after - before, end);
            if (pair[before] != NO_RANK)
                heap_push(heap, &size, (uint64_t)pair[before] << 32 | before);
        }
    }
done:
    PyMem_RawFree(next);
    PyMem_RawFree(prev);
    PyMem_RawFree(pair);
    PyMem_RawFree(heap);
    return parts;
}

/* Pieces that are not tokens are few but repeat (a text's identifiers, paths, foreign words), and
 * merging them costs several lookups each, so each thread remembers the counts of recent ones.
 * Thread-local, so counting without the GIL shares nothing; `owner` ties it to one vocabulary. */
#define CACHE_SLOTS 2048
#define CACHE_KEY 24

typedef struct {
    uint64_t key[CACHE_KEY / 8]; /* the piece, zero-padded, as load_head reads it */
    uint32_t len;                /* 0: empty */
    uint32_t count;
} CacheEntry;

typedef struct {
    uint64_t owner; /* Counter id; 0: never used */
    CacheEntry entries[CACHE_SLOTS];
} PieceCache;

#if defined(_MSC_VER)
static __declspec(thread) PieceCache piece_cache;
#else
static _Thread_local PieceCache piece_cache;
#endif

static Py_ssize_t
piece_tokens(const Counter *c, PieceCache *cache, const uint8_t *p, size_t n, const uint8_t *end)
{
    if (n == 1)
        return 1;
    if (n == 2)
        return c->pair_rank[(size_t)p[0] << 8 | p[1]] == NO_RANK ? 2 : 1;
    if (n > CACHE_KEY) {
        if (lookup(c, p, n, end) != NO_RANK)
            return 1;
        return n <= SMALL_PIECE ? merge_small(c, p, n, end) : merge_large(c, p, n, end);
    }
    uint64_t head = load_head(p, n, end);
    uint64_t hash = hash_key(p, n, head, end);
    if (n <= c->max_len && probe(c, p, n, head, hash, end) != NO_RANK)
        return 1;
    uint64_t key[CACHE_KEY / 8] = {head, 0, 0};
    for (size_t j = 8; j < n; j += 8)
        key[j / 8] = load_head(p + j, n - j, end);
    /* Bits 32..42 of the hash: the vocabulary's slot index uses the top ones. */
    CacheEntry *entry = &cache->entries[(hash >> 32) & (CACHE_SLOTS - 1)];
    if (entry->len == n && entry->key[0] == key[0] && entry->key[1] == key[1] && entry->key[2] == key[2])
        return entry->count;
    Py_ssize_t k = merge_small(c, p, n, end);
    memcpy(entry->key, key, sizeof key);
    entry->len = (uint32_t)n;
    entry->count = (uint32_t)k;
    return k;
}

/* The count, or -1 when unsure. Runs without the GIL: touches only the text and the table. */
static Py_ssize_t
count_utf8(const Counter *c, const uint8_t *s, size_t n)
{
    Scan sc = {s, n, 0};
    Py_ssize_t total = 0;
    PieceCache *cache = &piece_cache;
    if (cache->owner != c->id) {
        memset(cache->entries, 0, sizeof cache->entries);
        cache->owner = c->id;
    }
    size_t i = 0;
    while (i < n) {
        size_t e = next_piece(&sc, i);
        if (sc.unsure)
            return -1;
        Py_ssize_t k = piece_tokens(c, cache, s + i, e - i, s + n);
        if (k < 0)
            return -1;
        total += k;
        i = e;
    }
    return total;
}

/* --- Python glue ------------------------------------------------------------------------------ */

/* Like hashlib: below this many bytes, dropping and retaking the GIL costs more than counting. */
#define GIL_MINSIZE 2048

static void
Counter_dealloc(Counter *self)
{
    PyMem_Free(self->slots);
    PyMem_Free(self->arena);
    PyMem_Free(self->pair_rank);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static uint64_t counters_made; /* under the GIL */

/* Counter(ranks): the table is built here and never changes, so counting threads need no lock. */
static PyObject *
Counter_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *ranks;
    static char *kwlist[] = {"ranks", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!:Counter", kwlist, &PyDict_Type, &ranks))
        return NULL;
    Counter *self = (Counter *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;

    Py_ssize_t count = PyDict_Size(ranks), pos = 0;
    size_t arena_len = 0;
    PyObject *key, *value;
    while (PyDict_Next(ranks, &pos, &key, &value)) {
        if (!PyBytes_Check(key) || PyBytes_GET_SIZE(key) < 1 || PyBytes_GET_SIZE(key) > MAX_TOKEN_LEN) {
            PyErr_Format(PyExc_ValueError, "tokens must be bytes of 1 to %d bytes", MAX_TOKEN_LEN);
            goto fail;
        }
        arena_len += (size_t)PyBytes_GET_SIZE(key);
    }
    if (arena_len > UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "vocabulary too large");
        goto fail;
    }
    size_t slots = 1024;
    while (slots < 2 * (size_t)count + 2) /* load <= 1/2 keeps misses (most BPE lookups) short */
        slots *= 2;
    self->mask = slots - 1;
    self->shift = 64;
    for (size_t m = slots; m > 1; m >>= 1)
        self->shift--;
    self->slots = PyMem_Calloc(slots, sizeof(Slot));
    self->arena = PyMem_Malloc(arena_len ? arena_len : 1);
    self->pair_rank = PyMem_Malloc(65536 * sizeof(uint32_t));
    if (!self->slots || !self->arena || !self->pair_rank) {
        PyErr_NoMemory();
        goto fail;
    }
    for (size_t j = 0; j < 65536; j++)
        self->pair_rank[j] = NO_RANK;

    size_t offset = 0;
    pos = 0;
    while (PyDict_Next(ranks, &pos, &key, &value)) {
        long long r = PyLong_Check(value) ? PyLong_AsLongLong(value) : -1;
        if (r == -1 && PyErr_Occurred())
            goto fail;
        if (r < 0 || r > (long long)MAX_RANK) {
            PyErr_Format(PyExc_ValueError, "ranks must be ints from 0 to %u", MAX_RANK);
            goto fail;
        }
        const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(key);
        size_t len = (size_t)PyBytes_GET_SIZE(key);
        memcpy(self->arena + offset, b, len);
        uint64_t head = load_head(b, len, b + len);
        size_t i = (size_t)(hash_key(b, len, head, b + len) >> self->shift);
        while (self->slots[i].len_rank >> 24) /* keys of a dict are distinct: just find a hole */
            i = (i + 1) & self->mask;
        self->slots[i].head = head;
        self->slots[i].offset = (uint32_t)offset;
        self->slots[i].len_rank = (uint32_t)len << 24 | (uint32_t)r;
        if (len == 2)
            self->pair_rank[(size_t)b[0] << 8 | b[1]] = (uint32_t)r;
        if (len > self->max_len)
            self->max_len = len;
        offset += len;
    }
    self->arena_end = self->arena + arena_len;
    self->size = count;
    self->id = ++counters_made;
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* UTF-8 of a str, or NULL with no error set when it has none (lone surrogates). */
static const char *
utf8_of(PyObject *text, Py_ssize_t *n, int *failed)
{
    *failed = 0;
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "expected str, got %.100s", Py_TYPE(text)->tp_name);
        *failed = 1;
        return NULL;
    }
    const char *u = PyUnicode_AsUTF8AndSize(text, n);
    if (!u) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
            *failed = 1;
            return NULL;
        }
        PyErr_Clear(); /* tiktoken has its own fix-up for these: leave them to it */
    }
    return u;
}

static PyObject *
Counter_count(Counter *self, PyObject *text)
{
    Py_ssize_t n, result;
    int failed;
    const char *u = utf8_of(text, &n, &failed);
    if (failed)
        return NULL;
    if (!u)
        return PyLong_FromLong(-1);
    /* The UTF-8 buffer belongs to the str: keep the str alive while the GIL is released. */
    Py_INCREF(text);
    if (n >= GIL_MINSIZE) {
        Py_BEGIN_ALLOW_THREADS
        result = count_utf8(self, (const uint8_t *)u, (size_t)n);
        Py_END_ALLOW_THREADS
    }
    else {
        result = count_utf8(self, (const uint8_t *)u, (size_t)n);
    }
    Py_DECREF(text);
    return PyLong_FromSsize_t(result);
}

static PyObject *
Counter_count_many(Counter *self, PyObject *texts)
{
    /* A tuple of our own: another thread may mutate the caller's list while the GIL is released. */
    PyObject *items = PySequence_Tuple(texts);
    if (!items)
        return NULL;
    Py_ssize_t k = PyTuple_GET_SIZE(items);
    const char **bufs = PyMem_Malloc((size_t)(k ? k : 1) * sizeof(char *));
    Py_ssize_t *lens = PyMem_Malloc((size_t)(k ? k : 1) * sizeof(Py_ssize_t));
    PyObject *out = NULL;
    if (!bufs || !lens) {
        PyErr_NoMemory();
        goto done;
    }
    size_t total = 0;
    for (Py_ssize_t j = 0; j < k; j++) {
        int failed;
        bufs[j] = utf8_of(PyTuple_GET_ITEM(items, j), &lens[j], &failed);
        if (failed)
            goto done;
        if (!bufs[j])
            lens[j] = -1;
        else
            total += (size_t)lens[j];
    }
    if (total >= GIL_MINSIZE) {
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t j = 0; j < k; j++)
            if (bufs[j])
                lens[j] = count_utf8(self, (const uint8_t *)bufs[j], (size_t)lens[j]);
        Py_END_ALLOW_THREADS
    }
    else {
        for (Py_ssize_t j = 0; j < k; j++)
            if (bufs[j])
                lens[j] = count_utf8(self, (const uint8_t *)bufs[j], (size_t)lens[j]);
    }
    out = PyList_New(k);
    if (!out)
        goto done;
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *v = PyLong_FromSsize_t(lens[j]);
        if (!v) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, j, v);
    }
done:
    PyMem_Free(bufs);
    PyMem_Free(lens);
    Py_DECREF(items);
    return out;
}

static Py_ssize_t
Counter_len(Counter *self)
{
    return self->size;
}

static PyMethodDef Counter_methods[] = {
    {"count", (PyCFunction)Counter_count, METH_O,
     "count(text) -> int\n\nNumber of o200k_base tokens of text (as encode_ordinary), or -1 when unsure."},
    {"count_many", (PyCFunction)Counter_count_many, METH_O,
     "count_many(texts) -> list[int]\n\ncount() of each text, with the GIL released once."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods Counter_as_sequence = {
    .sq_length = (lenfunc)Counter_len,
};

static PyTypeObject CounterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sessions_app.o200k._o200k.Counter",
    .tp_basicsize = sizeof(Counter),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Counter(ranks: dict[bytes, int])\n\n"
              "o200k_base token counter over the given mergeable ranks (tiktoken's _mergeable_ranks).",
    .tp_new = Counter_new,
    .tp_dealloc = (destructor)Counter_dealloc,
    .tp_methods = Counter_methods,
    .tp_as_sequence = &Counter_as_sequence,
};

static struct PyModuleDef o200k_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "sessions_app.o200k._o200k",
    .m_doc = "Fast o200k_base token counting (see sessions_app.o200k.Counter).",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit__o200k(void)
{
    fill_bmp_classes();
    if (PyType_Ready(&CounterType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&o200k_module);
    if (!m)
        return NULL;
    Py_INCREF(&CounterType);
    if (PyModule_AddObject(m, "Counter", (PyObject *)&CounterType) < 0) {
        Py_DECREF(&CounterType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
