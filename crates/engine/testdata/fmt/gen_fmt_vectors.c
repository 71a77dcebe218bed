/*
 * Reference-vector generator for crates/engine/src/ns2/printf.rs.
 *
 * Prints, for a deterministic pseudo-random set of doubles and integers, an
 * FNV-1a-64 digest of what glibc's printf produces for each format string in
 * the tables below, chunk by chunk.  tests/fmt_vectors.rs regenerates the
 * same inputs (same splitmix64 stream, same constructions) and checks that
 * dumbbell_engine::fmt produces byte-identical text.
 *
 *   gcc -O2 -o gen_fmt_vectors gen_fmt_vectors.c && ./gen_fmt_vectors digests > fmt_digests.txt
 *   ./gen_fmt_vectors cases > fmt_cases.txt
 *
 * (see regen.sh).  Written for the Dumbbell project.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <float.h>

#define NVALUES 262144
#define CHUNK 4096
#define NLINES 65536
#define SEED_VALUES 0x5eed0f1e2d3c4b5aULL
#define SEED_INTS 0x1234567890abcdefULL
#define SEED_LINES 0x0ddba11cafef00dULL

static uint64_t sm_state;
static uint64_t sm_next(void)
{
	uint64_t z = (sm_state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static double from_bits(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static uint64_t to_bits(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

static const double P10[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};
/* 10^k for k = -20 .. 22, as correctly rounded literals */
static const double TEN[43] = {
	1e-20, 1e-19, 1e-18, 1e-17, 1e-16, 1e-15, 1e-14, 1e-13, 1e-12, 1e-11,
	1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1,
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

static const uint64_t SPECIAL_BITS[] = {
	0x0000000000000000ULL, /* 0 */
	0x8000000000000000ULL, /* -0 */
	0x7ff0000000000000ULL, /* inf */
	0xfff0000000000000ULL, /* -inf */
	0x7ff8000000000000ULL, /* nan */
	0xfff8000000000000ULL, /* -nan */
	0x7fefffffffffffffULL, /* DBL_MAX */
	0xffefffffffffffffULL, /* -DBL_MAX */
	0x0010000000000000ULL, /* DBL_MIN */
	0x0000000000000001ULL, /* min subnormal */
	0x8000000000000001ULL,
	0x000fffffffffffffULL, /* max subnormal */
	0x7ff0000000000001ULL, /* signalling nan */
};
static const double SPECIAL_VALS[] = {
	0.5, 1.0, 0.1, 0.125, 0.375, 2.5, 1e15, 1e16, 1e17,
	123456789012345678.0, 9.5, 0.05, 0.15, 0.25, 0.35, 1e-5, 1e-4,
	9.99995e-5, 999999.5, 1e21, 1e22, 1e23, 0.3, 99999.95, 0.00001,
	1.0000000000000002, 0.9999999999999999, 4.35, 2.675, 1.005, 1.115,
	5e-5, 0.0005, 0.00015, 1.5e-5, 999999.4999999999, 9999995.0,
	0.000099999999999999991, 123.456, 1e100, 1e-100, 1e300, 1e-300,
	1e308, 2.2250738585072014e-308, 4.9406564584124654e-324,
	18446744073709551616.0, 9007199254740993.0, 0.1 + 0.2,
	1.25, 1.35, 1.45, 0.045, 0.0625, 0.9375, 7.0, 77.0, 1024.0, 65536.0,
};
#define NSPECIAL (sizeof(SPECIAL_BITS) / 8 + sizeof(SPECIAL_VALS) / 8)

static double special(uint64_t k)
{
	k %= NSPECIAL;
	if (k < sizeof(SPECIAL_BITS) / 8)
		return from_bits(SPECIAL_BITS[k]);
	return SPECIAL_VALS[k - sizeof(SPECIAL_BITS) / 8];
}

/* The i-th test double; consumes exactly two splitmix64 draws. */
static double gen_value(uint64_t i)
{
	uint64_t r1 = sm_next(), r2 = sm_next();
	int neg = (int)(r2 >> 63);
	double v;
	switch (i % 10) {
	case 0:
		return from_bits(r1);
	case 1: {
		uint64_t e = 1023 - 70 + (r2 % 141);
		v = from_bits((e << 52) | (r1 & 0x000fffffffffffffULL));
		break;
	}
	case 2:
		return (double)(r1 % 10000000000ULL) / 1e6;
	case 3:
		v = (double)(r1 % 10000000ULL) / P10[r2 % 23];
		break;
	case 4: {
		uint64_t k = (r1 % (1ULL << 20)) | 1;
		uint64_t n = r2 % 30;
		v = (double)k * from_bits((1023 - n) << 52);
		break;
	}
	case 5:
		if (r2 & 2)
			v = (double)(r1 % (1ULL << 54));
		else
			v = (double)(r1 % 1000000000000000000ULL);
		break;
	case 6: {
		double base = TEN[r2 % 43];
		int64_t j = (int64_t)(r1 % 7) - 3;
		v = from_bits(to_bits(base) + (uint64_t)j);
		break;
	}
	case 7:
		if (r2 & 2)
			v = (double)(99990 + r1 % 20) / P10[4 + (r2 >> 2) % 6];
		else
			v = (double)(2 * (r1 % 100000) + 1) / (2.0 * P10[(r2 >> 2) % 12]);
		break;
	case 8:
		return special(i / 10);
	default:
		if (r2 & 2)
			return (double)(r1 % 10000000) / 1e6;
		else
			return (double)(r1 % 10000000) * 1e-6;
	}
	return neg ? -v : v;
}

/* The i-th test integer; consumes exactly two draws. */
static int64_t gen_int(uint64_t i)
{
	uint64_t r1 = sm_next(), r2 = sm_next();
	static const int64_t SPEC[] = {
		0, 1, -1, 9, 10, 99, 100, -10, 2147483647LL, -2147483647LL - 1,
		4294967295LL, 9223372036854775807LL, -9223372036854775807LL - 1,
		1000000000000000000LL, -999999999999999999LL, 65535, 255, 8, 7,
	};
	switch (i % 6) {
	case 0:
		return (int64_t)r1;
	case 1:
		return (int64_t)(int32_t)(uint32_t)r1;
	case 2:
		return (int64_t)(r1 % 2001) - 1000;
	case 3: {
		int64_t p = (int64_t)P10[r2 % 19];
		return (r1 & 1) ? -(p + (int64_t)(r1 % 3) - 1) : p + (int64_t)(r1 % 3) - 1;
	}
	case 4:
		return SPEC[(i / 6) % (sizeof(SPEC) / sizeof(SPEC[0]))];
	default:
		return (int64_t)(r1 % 100) - (int64_t)(r2 % 3);
	}
}

static const char *FLOAT_FORMATS[] = {
	"%.15g", "%.17g", "%g", "%.0g", "%.1g", "%.2g", "%.3g", "%.6g", "%.10g",
	"%.16g", "%.20g", "%#g", "%#.3g", "%#.1g", "%G", "%15.6g", "%-12.4g|", "% .5g",
	"%+g", "%012.5g", "%#.2g", "%#.5g", "%#.10g", "%#015.4g", "%#.17g", "%#.0g", "%#G",
	"%f", "%.0f", "%.1f", "%.2f", "%.3f", "%.5f", "%.6f", "%.9f", "%.12f",
	"%.17f", "%-8.5f|", "%-6.3f|", "%10.4f", "%08.3f", "%+.2f", "% .1f",
	"%#.0f", "%F", "%-10.6f|",
	"%e", "%.0e", "%.1e", "%.3e", "%.10e", "%.16e", "%.20e", "%6e", "%E",
	"%+.3e", "%#.0e", "%012.4e", "%-14.3e|",
};
#define NFLOAT (sizeof(FLOAT_FORMATS) / sizeof(FLOAT_FORMATS[0]))

static const char *INT_FORMATS[] = {
	"%ld", "%-2ld|", "%5ld", "%05ld", "%+ld", "% ld", "%lx", "%lu", "%.3ld",
	"%-6ld|", "%#lx", "%lo", "%#lo", "%lX", "%.0ld", "%8.3ld", "%-8.3lx|",
	"%020ld", "%-+5ld|", "%#.5lo", "%#08lx", "%i", "%d", "%u", "%x",
};
#define NINT (sizeof(INT_FORMATS) / sizeof(INT_FORMATS[0]))

static const char *STRS[] = { "tcp", "ack", "cbr", "-------", "---A---", "0", "1", "10", "255", "-1", "" };
#define NSTRS (sizeof(STRS) / sizeof(STRS[0]))
static const char EVENTS[] = "+-dhr";

/* Time-like double for trace lines; consumes one draw. */
static double gen_time(void)
{
	uint64_t r = sm_next();
	switch (r % 4) {
	case 0: return (double)((r >> 8) % 100000000ULL) / 1e6;
	case 1: return (double)((r >> 8) % 100000000ULL) * 1e-6;
	case 2: return (double)((r >> 8) % 1000000ULL) / 1e6 + (double)((r >> 40) % 100);
	default: return from_bits(0x3f00000000000000ULL | ((r >> 8) & 0x00ffffffffffffffULL)) * 64.0;
	}
}

/* Formats line number i of kind k into buf.  The argument draws happen in a
 * fixed order (sequence points), mirrored in the Rust test. */
static int gen_line(int k, char *buf, size_t n)
{
	switch (k) {
	case 0: {
		int ev = (int)(sm_next() % 5);
		double t = gen_time();
		long a = (long)(sm_next() % 100), b = (long)(sm_next() % 100);
		const char *ty = STRS[sm_next() % NSTRS];
		long sz = (long)(sm_next() % 1500);
		const char *fl = STRS[sm_next() % NSTRS];
		long fid = (long)(sm_next() % 10);
		const char *s1 = STRS[sm_next() % NSTRS], *s2 = STRS[sm_next() % NSTRS];
		const char *s3 = STRS[sm_next() % NSTRS], *s4 = STRS[sm_next() % NSTRS];
		long seq = (long)(sm_next() % 100000) - 1, uid = (long)(sm_next() % 1000000);
		return snprintf(buf, n, "%c %.15g %ld %ld %s %ld %s %ld %s.%s %s.%s %ld %ld",
				EVENTS[ev], t, a, b, ty, sz, fl, fid, s1, s2, s3, s4, seq, uid);
	}
	case 1: {
		double t = gen_time();
		long a = (long)(sm_next() % 120), b = (long)(sm_next() % 120);
		long c = (long)(sm_next() % 120) - 5, d = (long)(sm_next() % 1200);
		const char *s = STRS[sm_next() % NSTRS];
		double w = gen_time() - 20.0;
		return snprintf(buf, n, "%-8.5f %-2ld %-2ld %-2ld %-2ld %s %-6.3f", t, a, b, c, d, s, w);
	}
	default: {
		const char *s = STRS[sm_next() % NSTRS];
		int ch = (int)(33 + sm_next() % 90);
		long w1 = (long)(sm_next() % 12), v1 = (long)(sm_next() % 2000) - 1000;
		long w2 = (long)(sm_next() % 12) - 6, v2 = (long)(sm_next() % 2000) - 1000;
		long p = (long)(sm_next() % 9) - 1;
		double x = gen_time() - 50.0;
		double y = from_bits(sm_next());
		unsigned long u = (unsigned long)sm_next();
		return snprintf(buf, n, "%5.2s|%-4c|%%|%*ld|%-*ld|%.*f|%+.3e|%#lx|%lu",
				s, ch, (int)w1, v1, (int)w2, v2, (int)p, x, y, u, u);
	}
	}
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++) {
		h ^= c[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}
#define FNV0 0xcbf29ce484222325ULL

static double values[NVALUES];
static int64_t ints[NVALUES];
static char buf[8192];

static void gen_all(void)
{
	sm_state = SEED_VALUES;
	for (uint64_t i = 0; i < NVALUES; i++)
		values[i] = gen_value(i);
	sm_state = SEED_INTS;
	for (uint64_t i = 0; i < NVALUES; i++)
		ints[i] = gen_int(i);
}

static void digests(void)
{
	printf("# glibc printf digests for tests/fmt_vectors.rs; generated by gen_fmt_vectors.c (see regen.sh)\n");
	printf("# FNV-1a-64 over each output followed by '\\n', per chunk of %d values\n", CHUNK);
	printf("values\t%d\t%d\t%d\n", NVALUES, CHUNK, NLINES);
	printf("inputs\tfloat\t");
	for (int c = 0; c < NVALUES / CHUNK; c++) {
		uint64_t h = FNV0;
		for (int i = c * CHUNK; i < (c + 1) * CHUNK; i++) {
			uint64_t b = to_bits(values[i]);
			h = fnv(h, &b, 8);
		}
		printf("%016llx%s", (unsigned long long)h, c + 1 < NVALUES / CHUNK ? " " : "\n");
	}
	printf("inputs\tint\t");
	for (int c = 0; c < NVALUES / CHUNK; c++) {
		uint64_t h = FNV0;
		for (int i = c * CHUNK; i < (c + 1) * CHUNK; i++)
			h = fnv(h, &ints[i], 8);
		printf("%016llx%s", (unsigned long long)h, c + 1 < NVALUES / CHUNK ? " " : "\n");
	}
	for (size_t f = 0; f < NFLOAT; f++) {
		printf("float\t%s\t", FLOAT_FORMATS[f]);
		for (int c = 0; c < NVALUES / CHUNK; c++) {
			uint64_t h = FNV0;
			for (int i = c * CHUNK; i < (c + 1) * CHUNK; i++) {
				int n = snprintf(buf, sizeof buf, FLOAT_FORMATS[f], values[i]);
				h = fnv(h, buf, (size_t)n);
				h = fnv(h, "\n", 1);
			}
			printf("%016llx%s", (unsigned long long)h, c + 1 < NVALUES / CHUNK ? " " : "\n");
		}
	}
	for (size_t f = 0; f < NINT; f++) {
		int narrow = strchr(INT_FORMATS[f], 'l') == NULL; /* plain int conversions */
		printf("int\t%s\t", INT_FORMATS[f]);
		for (int c = 0; c < NVALUES / CHUNK; c++) {
			uint64_t h = FNV0;
			for (int i = c * CHUNK; i < (c + 1) * CHUNK; i++) {
				int n;
				if (narrow)
					n = snprintf(buf, sizeof buf, INT_FORMATS[f], (int)ints[i]);
				else
					n = snprintf(buf, sizeof buf, INT_FORMATS[f], (long)ints[i]);
				h = fnv(h, buf, (size_t)n);
				h = fnv(h, "\n", 1);
			}
			printf("%016llx%s", (unsigned long long)h, c + 1 < NVALUES / CHUNK ? " " : "\n");
		}
	}
	for (int k = 0; k < 3; k++) {
		sm_state = SEED_LINES + (uint64_t)k;
		printf("line\t%d\t", k);
		for (int c = 0; c < NLINES / CHUNK; c++) {
			uint64_t h = FNV0;
			for (int i = 0; i < CHUNK; i++) {
				int n = gen_line(k, buf, sizeof buf);
				h = fnv(h, buf, (size_t)n);
				h = fnv(h, "\n", 1);
			}
			printf("%016llx%s", (unsigned long long)h, c + 1 < NLINES / CHUNK ? " " : "\n");
		}
	}
}

/* Human-readable cases: the first values of every category, in a subset of
 * the formats, as "format<TAB>bits<TAB>output" lines. */
static void cases(void)
{
	static const char *CASE_FORMATS[] = {
		"%.15g", "%.17g", "%g", "%.3g", "%#g", "%f", "%.2f", "%-8.5f|", "%-6.3f|", "%e", "%.3e", "%6e",
	};
	printf("# glibc printf output for selected values; generated by gen_fmt_vectors.c (see regen.sh)\n");
	printf("# format<TAB>f64 bits (hex)<TAB>output\n");
	for (size_t f = 0; f < sizeof(CASE_FORMATS) / sizeof(CASE_FORMATS[0]); f++) {
		for (int i = 0; i < 400; i++) {
			snprintf(buf, sizeof buf, CASE_FORMATS[f], values[i]);
			printf("%s\t%016llx\t%s\n", CASE_FORMATS[f], (unsigned long long)to_bits(values[i]), buf);
		}
		for (int i = 0; i < (int)NSPECIAL; i++) {
			double v = special((uint64_t)i);
			snprintf(buf, sizeof buf, CASE_FORMATS[f], v);
			printf("%s\t%016llx\t%s\n", CASE_FORMATS[f], (unsigned long long)to_bits(v), buf);
		}
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s digests|cases\n", argv[0]);
		return 2;
	}
	gen_all();
	if (strcmp(argv[1], "digests") == 0)
		digests();
	else if (strcmp(argv[1], "cases") == 0)
		cases();
	else
		return 2;
	return 0;
}
