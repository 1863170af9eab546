// SPDX-License-Identifier: GPL-2.0
/*
 * Section 6 of the fault-tolerant multicast paper on a 50x50 mesh: traffic
 * steps of Strategies 1, 2, 3 and of multiple unicast against the number
 * of faults (10 and 40 destinations) and against the number of
 * destinations (50, 100, 150 faults); separating points (Fig. 10(1)); and
 * the speed of the fault information and of Strategy 3.
 *
 *   bench_faults [--trials N] [--data DIR]
 *
 * Every point is the mean over N random instances (default 100; "runs"
 * counts those where the blocks left a source and a destination): faulty
 * nodes uniform over the mesh, a source outside the blocks, destinations
 * uniform over the nodes to which the source is extended safe (the paper's
 * standing assumption).  The three strategies and the baseline see the
 * same instances.  With --data, the tables are also written as gnuplot
 * data files into DIR (tools/bench/plot_faults.gp draws them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "testutil.h"
#include "ftmcast.h"

#define SIDE 50
#define RUNS 7

static u64 rng_state = 0x2545f4914f6cdd1dull;

static u32 rnd(u32 n)
{
	return tu_rand_hi(&rng_state, n);
}

struct point {
	double steps[4];	/* Strategies 1, 2, 3, multiple unicast */
	double sep[3];		/* separating points per strategy */
	double ndst;		/* destinations actually drawn */
	double ms3;		/* Strategy 3 planning time */
	u32 valid;		/* instances with at least one destination */
};

/*
 * One random instance: fault set, source, destinations; all strategies.
 * Returns false when the blocks leave no usable source or destination
 * (above about 300 faults they merge into one block covering the mesh).
 */
static bool instance(u32 nfaults, u32 k, u32 trial, struct point *acc)
{
	u32 *f = calloc(nfaults + 1, sizeof(u32));
	u32 *cand = calloc(SIDE * SIDE, sizeof(u32));
	u32 *dst = calloc(k + 1, sizeof(u32));
	struct wc_faultinfo fi;
	u32 src, ncand = 0, n = 0, i, s;

	tu_random_faults(&rng_state, SIDE, SIDE, nfaults, f);
	wc_fi_build(&fi, SIDE, SIDE, f, nfaults, NULL, 0, NULL);
	/* a random healthy source: the healthy nodes are the candidates */
	for (i = 0; i < fi.nnodes; i++)
		if (!wc_fi_in_block(&fi, i))
			cand[ncand++] = i;
	if (!ncand)
		goto out;
	src = cand[rnd(ncand)];
	ncand = 0;
	for (i = 0; i < fi.nnodes; i++)
		if (i != src && wc_fi_ext_safe(&fi, src, i))
			cand[ncand++] = i;
	/* partial Fisher-Yates: k distinct candidates */
	n = k < ncand ? k : ncand;
	for (i = 0; i < n; i++) {
		u32 j = i + rnd(ncand - i), t = cand[i];

		cand[i] = cand[j];
		cand[j] = t;
		dst[i] = cand[i];
	}
	acc->ndst += n;
	for (s = WC_FT_STRATEGY1; s <= WC_FT_STRATEGY3; s++) {
		struct wc_ft_plan_opts o = { .strategy = s, .seed = trial + 1 };
		struct wc_ft_plan p;
		double t0 = bench_wall_ms();

		if (wc_ft_plan(&fi, src, dst, n, &o, &p, NULL))
			continue;
		if (s == WC_FT_STRATEGY3)
			acc->ms3 += bench_wall_ms() - t0;
		if (p.nreached != n)
			fprintf(stderr, "bench_faults: %u of %u reached (a bug)\n",
				p.nreached, n);
		acc->steps[s - 1] += p.nhops;
		acc->sep[s - 1] += p.nsep;
		if (s == WC_FT_STRATEGY3)
			acc->steps[3] += p.unicast_steps;
		wc_ft_plan_free(&p);
	}
out:
	wc_fi_free(&fi);
	free(f);
	free(cand);
	free(dst);
	return n > 0;
}

static struct point run_point(u32 nfaults, u32 k, u32 trials)
{
	struct point p;
	u32 t, i, valid = 0;

	memset(&p, 0, sizeof(p));
	for (t = 0; t < trials; t++)
		valid += instance(nfaults, k, t, &p);
	p.valid = valid;
	if (!valid)
		return p;
	for (i = 0; i < 4; i++)
		p.steps[i] /= valid;
	for (i = 0; i < 3; i++)
		p.sep[i] /= valid;
	p.ndst /= valid;
	p.ms3 /= valid;
	return p;
}

static FILE *data_file(const char *dir, const char *name)
{
	char path[4096];
	FILE *fp;

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (!fp)
		perror(path);
	return fp;
}

static void header(FILE *fp, const char *first)
{
	printf("%8s %5s %6s %8s %8s %8s %8s %7s %7s\n", first, "runs", "dests",
	       "S1", "S2", "S3", "unicast", "uc/S3", "sep(S3)");
	if (fp)
		fprintf(fp, "# %s dests S1 S2 S3 unicast sepS1 sepS2 sepS3\n", first);
}

static void row(FILE *fp, u32 x, const struct point *p)
{
	printf("%8u %5u %6.1f %8.1f %8.1f %8.1f %8.1f %7.2f %7.2f\n", x,
	       p->valid, p->ndst,
	       p->steps[0], p->steps[1], p->steps[2], p->steps[3],
	       p->steps[2] > 0 ? p->steps[3] / p->steps[2] : 0, p->sep[2]);
	if (fp)
		fprintf(fp, "%u %.2f %.2f %.2f %.2f %.2f %.2f %.2f %.2f\n", x,
			p->ndst, p->steps[0], p->steps[1], p->steps[2],
			p->steps[3], p->sep[0], p->sep[1], p->sep[2]);
}

static void speed(void)
{
	double t[RUNS], tt[RUNS], tp[RUNS];
	u32 nf = 256 * 256 / 100, *f = calloc(nf, sizeof(u32)), r, nb = 0;

	tu_random_faults(&rng_state, 256, 256, nf, f);
	for (r = 0; r < RUNS; r++) {
		struct wc_faultinfo fi;
		struct wc_fi_tables tb;
		double t0 = bench_wall_ms();

		wc_fi_build(&fi, 256, 256, f, nf, NULL, 0, NULL);
		t[r] = bench_wall_ms() - t0;
		t0 = bench_wall_ms();
		wc_fi_tables_build(&fi, &tb);
		tt[r] = bench_wall_ms() - t0;
		nb = fi.nblocks;
		wc_fi_tables_free(&tb);
		wc_fi_free(&fi);
	}
	printf("fault_info_256x256_1pct_blocks: %u blocks\n", nb);
	printf("fault_info_256x256_1pct_build: %.2f ms\n", bench_median(t, RUNS));
	printf("fault_info_256x256_1pct_router_tables: %.2f ms\n",
	       bench_median(tt, RUNS));
	free(f);
	for (r = 0; r < RUNS; r++) {
		struct point p;

		memset(&p, 0, sizeof(p));
		instance(150, 120, r, &p);
		tp[r] = p.ms3;
	}
	printf("strategy3_50x50_150faults_120dests: %.2f ms\n", bench_median(tp, RUNS));
}

int main(int argc, char **argv)
{
	static const u32 faults[] = { 0, 20, 50, 80, 100, 130, 160, 200, 250, 320 };
	static const u32 fixed_faults[] = { 50, 100, 150 };
	const char *dir = NULL;
	u32 trials = 100, i, j, k;
	FILE *fp;
	char name[64];

	for (i = 1; i < (u32)argc; i++) {
		if (!strcmp(argv[i], "--trials") && i + 1 < (u32)argc) {
			trials = (u32)strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--data") && i + 1 < (u32)argc) {
			dir = argv[++i];
		} else {
			fprintf(stderr, "usage: bench_faults [--trials N] [--data DIR]\n");
			return 2;
		}
	}
	if (trials < 1 || trials > 100000) {
		fprintf(stderr, "bench_faults: trials must be 1 to 100000\n");
		return 2;
	}
	printf("# 50x50 mesh, %u random instances per point; mean traffic steps\n",
	       trials);
	for (j = 0; j < 2; j++) {
		k = j ? 40 : 10;
		printf("\n# traffic steps vs faults, %u destinations (Fig. 10(2)%c)\n",
		       k, j ? 'b' : 'a');
		snprintf(name, sizeof(name), "faults_k%u.dat", k);
		fp = data_file(dir, name);
		header(fp, "faults");
		for (i = 0; i < ARRAY_SIZE(faults); i++) {
			struct point p = run_point(faults[i], k, trials);

			row(fp, faults[i], &p);
		}
		if (fp)
			fclose(fp);
	}
	for (j = 0; j < ARRAY_SIZE(fixed_faults); j++) {
		printf("\n# traffic steps vs destinations, %u faults (Fig. 11(%c))\n",
		       fixed_faults[j], 'a' + j);
		snprintf(name, sizeof(name), "dests_f%u.dat", fixed_faults[j]);
		fp = data_file(dir, name);
		header(fp, "dests");
		for (k = 10; k <= 120; k += 10) {
			struct point p = run_point(fixed_faults[j], k, trials);

			row(fp, k, &p);
		}
		if (fp)
			fclose(fp);
	}
	printf("\n# separating points (Strategy 3) vs destinations (Fig. 10(1))\n");
	printf("%6s %8s %8s %8s %8s\n", "dests", "bound", "0 faults", "50", "100");
	fp = data_file(dir, "sep.dat");
	if (fp)
		fprintf(fp, "# dests bound f0 f50 f100\n");
	for (k = 10; k <= 120; k += 10) {
		struct point p0 = run_point(0, k, trials);
		struct point p50 = run_point(50, k, trials);
		struct point p100 = run_point(100, k, trials);

		printf("%6u %8u %8.2f %8.2f %8.2f\n", k, k - 1, p0.sep[2],
		       p50.sep[2], p100.sep[2]);
		if (fp)
			fprintf(fp, "%u %u %.2f %.2f %.2f\n", k, k - 1, p0.sep[2],
				p50.sep[2], p100.sep[2]);
	}
	if (fp)
		fclose(fp);
	printf("\n# speed (median of %d runs)\n", RUNS);
	speed();
	return 0;
}
