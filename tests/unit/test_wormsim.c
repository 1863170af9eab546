// SPDX-License-Identifier: GPL-2.0
/*
 * wormsim's pure parts (PRNG, Poisson arrivals, the latency histogram,
 * argument parsing, saturation detection) and short runs on the engine:
 * determinism whatever the number of workers, conservation, bounded
 * memory, and the zero-load latency of Eq. 1 measured through the
 * simulator.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "../../tools/wormsim/sim.c"
#include "sim_parse.h"

/* ------------------------------------------------------------ helpers */

/* Everything wormsim prints for one configuration, as one string. */
static char *sweep_text(const struct sim_config *cfg, u32 jobs,
			struct sim_sweep *sw)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (sim_sweep(cfg, jobs, sw))
		fprintf(f, "sweep failed at point %u\n", sw->failed);
	sim_print_summary(f, cfg, sw);
	sim_print_json(f, cfg, sw);
	sim_print_csv(f, cfg, sw);
	fclose(f);
	return buf;
}

static char *run_text(const struct sim_config *cfg, u32 jobs)
{
	struct sim_sweep sw;
	char *text = sweep_text(cfg, jobs, &sw);

	sim_sweep_free(&sw);
	return text;
}

/* ------------------------------------------------------------ tests */

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The reference: nearest rank over the sorted samples, by counting (the
 * smallest sample with at least p/1000 of the samples at or below it).
 */
static u64 exact_percentile(const u64 *sorted, size_t n, u32 permille)
{
	size_t i = 0;

	while (i + 1 < n && (i + 1) * 1000 < (size_t)permille * n)
		i++;
	return sorted[i];
}

/* Histogram percentiles against the exact ones; returns the failures. */
static int check_hist(const char *what, const u64 *v, size_t n,
		      double *worst)
{
	static const u32 pm[] = { 0, 1, 10, 100, 250, 500, 750, 900, 990,
				  999, 1000 };
	struct sim_hist *h = malloc(sizeof(*h));
	u64 *sorted = malloc(n * sizeof(*sorted));
	unsigned __int128 sum = 0;
	int bad = 0;
	size_t i;

	if (!h || !sorted) {
		free(h);
		free(sorted);
		return 1;
	}
	sim_hist_init(h);
	for (i = 0; i < n; i++) {
		sim_hist_add(h, v[i]);
		sum += v[i];
		sorted[i] = v[i];
	}
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	if (h->count != n || sim_hist_mean(h) != (double)sum / (double)n ||
	    h->min != sorted[0] || h->max != sorted[n - 1]) {
		diag("%s: count, mean, min or max not exact", what);
		bad++;
	}
	for (i = 0; i < ARRAY_SIZE(pm); i++) {
		u64 want = exact_percentile(sorted, n, pm[i]);
		u64 got = sim_hist_percentile(h, pm[i]);
		double err = want ? fabs((double)got - (double)want) / (double)want :
				    (double)got;

		if (err > *worst)
			*worst = err;
		if (err > SIM_HIST_REL_ERR) {
			diag("%s: p%.1f got %llu want %llu", what, pm[i] / 10.0,
			     (unsigned long long)got, (unsigned long long)want);
			bad++;
		}
	}
	free(h);
	free(sorted);
	return bad;
}

static void test_hist(void)
{
	enum { N = 200000 };
	u64 *v = malloc(N * sizeof(*v));
	struct sim_hist *h = malloc(sizeof(*h));
	double worst = 0;
	struct sim_rng r;
	int bad = 0;
	size_t i, n;

	if (!v || !h) {
		ok(0, "allocation");
		free(v);
		free(h);
		return;
	}
	sim_rng_seed(&r, 7);
	/* small values have a bucket each: every percentile is exact */
	for (n = 1; n <= 300; n += (n < 20 ? 1 : 37)) {
		for (i = 0; i < n; i++)
			v[i] = sim_rng_below(&r, 50);	/* many ties */
		worst = 0;
		bad += check_hist("ties", v, n, &worst);
		if (worst > 0) {
			diag("n %zu: small values not exact", n);
			bad++;
		}
	}
	ok(!bad, "values below %u: count, mean and every percentile exact",
	   2u << SIM_HIST_SUB_BITS);

	worst = 0;
	for (i = 0; i < N; i++)
		v[i] = sim_rng_below(&r, 1000000);
	bad = check_hist("uniform", v, N, &worst);
	ok(!bad, "uniform on [0, 1e6): percentiles within %.2f%% (worst %.4f%%), mean exact",
	   100 * SIM_HIST_REL_ERR, 100 * worst);
	sim_hist_init(h);
	for (i = 0; i < N; i++)
		sim_hist_add(h, v[i]);
	ok(fabs((double)sim_hist_percentile(h, 500) - 5e5) < 5e5 * 0.01 &&
	   fabs((double)sim_hist_percentile(h, 990) - 9.9e5) < 9.9e5 * 0.01,
	   "uniform: p50 %llu and p99 %llu near 5e5 and 9.9e5",
	   (unsigned long long)sim_hist_percentile(h, 500),
	   (unsigned long long)sim_hist_percentile(h, 990));

	worst = 0;
	for (i = 0; i < N; i++)
		v[i] = (u64)sim_rng_exp(&r, 1e-3);
	bad = check_hist("exponential", v, N, &worst);
	sim_hist_init(h);
	for (i = 0; i < N; i++)
		sim_hist_add(h, v[i]);
	/* exponential of mean 1000: median 1000 ln 2, p99 1000 ln 100 */
	ok(!bad && fabs((double)sim_hist_percentile(h, 500) - 693.1) < 15 &&
	   fabs((double)sim_hist_percentile(h, 990) - 4605.2) < 150,
	   "exponential (mean 1000): within %.2f%% (worst %.4f%%); p50 %llu ~ 693, p99 %llu ~ 4605",
	   100 * SIM_HIST_REL_ERR, 100 * worst,
	   (unsigned long long)sim_hist_percentile(h, 500),
	   (unsigned long long)sim_hist_percentile(h, 990));

	/* heavy tail (Pareto, alpha 1.1) over the whole range */
	worst = 0;
	for (i = 0; i < N; i++) {
		double x = 30 * pow(1 - sim_rng_uniform(&r), -1 / 1.1);

		v[i] = x < 0x1p41 ? (u64)x : 1ull << 41;
	}
	bad = check_hist("pareto", v, N, &worst);
	ok(!bad, "Pareto tail up to 2^41: within %.2f%% (worst %.4f%%)",
	   100 * SIM_HIST_REL_ERR, 100 * worst);

	/* two far-apart values, a constant, one sample, the top bucket */
	for (i = 0; i < 1000; i++)
		v[i] = i < 990 ? 100 : 123456789;
	worst = 0;
	bad = check_hist("two-point", v, 1000, &worst);
	ok(!bad, "two far-apart values: within %.2f%% (worst %.4f%%)",
	   100 * SIM_HIST_REL_ERR, 100 * worst);
	for (i = 0; i < 1000; i++)
		v[i] = 1234567;
	worst = 0;
	bad = check_hist("constant", v, 1000, &worst);
	ok(!bad && !worst, "a constant is exact (clamped to min and max)");
	sim_hist_init(h);
	is_int(sim_hist_percentile(h, 500), 0, "no sample: percentile 0");
	ok(sim_hist_mean(h) == 0, "no sample: mean 0");
	sim_hist_add(h, U64_MAX);
	sim_hist_add(h, 1ull << 50);
	ok(h->max == U64_MAX && h->bucket[SIM_HIST_BUCKETS - 1] == 2,
	   "values beyond 2^%d share the top bucket, max stays exact",
	   SIM_HIST_MAX_BITS);
	ok(sizeof(struct sim_hist) < 80 * 1024,
	   "a histogram is %zu bytes whatever the number of samples",
	   sizeof(struct sim_hist));
	free(v);
	free(h);
}

static void test_rng(void)
{
	struct sim_rng a, b;
	u32 counts[7] = { 0 };
	double n = 70000, sd, u, umin = 1, umax = 0;
	int i, same = 1, within = 1;

	sim_rng_seed(&a, 42);
	sim_rng_seed(&b, 42);
	for (i = 0; i < 1000; i++)
		if (sim_rng_next(&a) != sim_rng_next(&b))
			same = 0;
	ok(same, "same seed, same stream");
	sim_rng_seed(&b, 43);
	ok(sim_rng_next(&a) != sim_rng_next(&b), "another seed, another stream");

	for (i = 0; i < n; i++) {
		counts[sim_rng_below(&a, 7)]++;
		u = sim_rng_uniform(&a);
		if (u < umin)
			umin = u;
		if (u > umax)
			umax = u;
	}
	/* each bucket is binomial(n, 1/7): within 5 standard deviations */
	sd = sqrt(n * (1.0 / 7) * (6.0 / 7));
	for (i = 0; i < 7; i++)
		if (fabs(counts[i] - n / 7) > 5 * sd)
			within = 0;
	ok(within, "sim_rng_below(7) is uniform within 5 sigma");
	ok(umin >= 0 && umax < 1 && umin < 0.001 && umax > 0.999,
	   "uniform doubles cover [0, 1)");
	is_int(sim_rng_below(&a, 1), 0, "below(1) is 0");
}

static void test_poisson(void)
{
	const double rate = 0.25;
	const int n = 200000;
	struct sim_rng r;
	double sum = 0, sum2 = 0, mean, var, t = 0;
	u32 per_unit[2000] = { 0 };
	double cmean = 0, cvar = 0;
	int i;

	sim_rng_seed(&r, 2024);
	for (i = 0; i < n; i++) {
		double x = sim_rng_exp(&r, rate);

		if (!(x >= 0) || !isfinite(x))
			break;
		sum += x;
		sum2 += x * x;
	}
	is_int(i, n, "exponential samples are finite and non-negative");
	mean = sum / n;
	var = sum2 / n - mean * mean;
	/* mean 1/rate, sd of the mean (1/rate)/sqrt(n): 5 sigma bounds */
	ok(fabs(mean - 1 / rate) < 5 * (1 / rate) / sqrt(n),
	   "inter-arrival mean %.4f is 1/rate = %.1f within 5 sigma", mean, 1 / rate);
	ok(fabs(var / (mean * mean) - 1) < 0.05,
	   "inter-arrival variance is mean^2 (exponential): ratio %.4f",
	   var / (mean * mean));

	/* arrivals in unit-length windows: Poisson counts, mean == variance */
	while (t < 2000) {
		t += sim_rng_exp(&r, 4.0);
		if (t < 2000)
			per_unit[(int)t]++;
	}
	for (i = 0; i < 2000; i++)
		cmean += per_unit[i];
	cmean /= 2000;
	for (i = 0; i < 2000; i++)
		cvar += (per_unit[i] - cmean) * (per_unit[i] - cmean);
	cvar /= 1999;
	ok(fabs(cmean - 4) < 5 * sqrt(4.0 / 2000),
	   "arrivals per cycle average the rate (%.3f vs 4)", cmean);
	ok(fabs(cvar / cmean - 1) < 0.15,
	   "arrival counts are Poisson: variance/mean %.3f", cvar / cmean);
}

static void test_args(void)
{
	struct sim_config cfg;
	char err[512];
	u32 i;
	static const char *const bad[][6] = {
		{ "--load", "0" }, { "--load", "-0.1" }, { "--load", "abc" },
		{ "--load", "0.5x" }, { "--load", "nan" }, { "--load", "2" },
		{ "--dims", "8x" }, { "--dims", "x8" }, { "--dims", "8xx8" },
		{ "--dims", "1x8" }, { "--dims", "2x2x2x2" }, { "--dims", "" },
		{ "--dims", "100x100" }, { "--topology", "ring" },
		{ "--topology", "hypercube", "--dim", "13" },
		{ "--topology", "star", "--n", "8" },
		{ "--topology", "mesh", "--n", "4" },
		{ "--topology", "torus", "--vcs", "1" },
		{ "--vcs", "0" }, { "--vcs", "-1" }, { "--buf-flits", "65" },
		{ "--flit-bytes", "0" }, { "--link-delay", "0" },
		{ "--watchdog", "3" }, { "--replication", "maybe" },
		{ "--router-delay", "99999999999" }, { "--inj", "9" },
		{ "--msg-bytes", "0" }, { "--msg-flits", "0" },
		{ "--msg-bytes", "64", "--msg-flits", "2" },
		{ "--mcast-frac", "1.5" }, { "--mcast-frac", "-0.1" },
		{ "--dsts", "1" }, { "--dsts", "64" }, { "--dsts", "uniform:5:2" },
		{ "--dsts", "uniform:2" }, { "--dsts", "normal:2:3" },
		{ "--cycles", "0" }, { "--cycles", "1e3" }, { "--seed", "-1" },
		{ "--warmup", " 5" }, { "--sweep", "0.1:0.05:0.01" },
		{ "--sweep", "0:0.5:0.1" }, { "--sweep", "0.1:0.5" },
		{ "--sweep", "0.1:0.5:0" }, { "--sweep", "0.0001:1:0.0001" },
		{ "--load", "0.1", "--sweep", "0.1:0.2:0.1" },
		{ "--algo", "telepathy" }, { "--plot", "a'b" },
		{ "--topology", "hypercube", "--dim", "1", "--mcast-frac", "0.5" },
		{ "--jobs", "0" }, { "--jobs", "x" }, { "--jobs", "1001" },
		{ "--knee-ratio", "1" }, { "--knee-ratio", "0.5" },
		{ "--knee-ratio", "inf" }, { "--knee-ratio", "3x" },
	};

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int ret = parse(&cfg, err, sizeof(err), bad[i][0], bad[i][1],
				bad[i][2], bad[i][3], bad[i][4], bad[i][5],
				(char *)NULL);
		char words[160] = "";
		u32 j;

		for (j = 0; j < 6 && bad[i][j]; j++)
			snprintf(words + strlen(words), sizeof(words) - strlen(words),
				 " '%s'", bad[i][j]);
		ok(ret == 1 && err[0], "rejects%s: %s", words, err);
	}
	is_int(PARSE(&cfg, err, "--bogus"), 2, "unknown option is a usage error");
	is_int(PARSE(&cfg, err, "--load"), 2, "missing argument is a usage error");
	is_int(PARSE(&cfg, err, "stray"), 2, "stray word is a usage error");
	is_int(PARSE(&cfg, err, "--help"), 0, "--help parses");
	ok(cfg.help, "--help sets help");

	is_int(PARSE(&cfg, err, "--msg-flits", "4", "--flit-bytes", "16"), 0,
	       "msg-flits before flit-bytes");
	is_int(cfg.msg_bytes, 64, "4 flits of 16 bytes are 64 bytes");
	is_int(PARSE(&cfg, err, "--msg-bytes", "100", "--flit-bytes", "32"), 0,
	       "msg-bytes");
	is_int(sim_msg_flits(&cfg), 4, "100 bytes are ceil(100/32) = 4 flits");
	is_int(PARSE(&cfg, err, "--sweep", "0.05:0.9:0.05"), 0, "sweep parses");
	is_int(cfg.npoints, 18, "0.05:0.9:0.05 has 18 points, both ends in");
	ok(fabs(sim_point_load(&cfg, 17) - 0.9) < 1e-9, "last point is 0.9");
	is_int(PARSE(&cfg, err, "--topology", "torus", "--dims", "4x4x4"), 0,
	       "3-D torus");
	is_int(cfg.topo.nnodes, 64, "4x4x4 has 64 nodes");
	is_int(cfg.params.vcs, 2, "torus defaults to 2 VCs");
	is_int(PARSE(&cfg, err, "--topology", "hypercube", "--dim", "5",
		     "--dsts", "uniform:2:31", "--mcast-frac", "0.5"), 0,
	       "hypercube with a destination range");
	ok(cfg.topo.nnodes == 32 && cfg.dsts_min == 2 && cfg.dsts_max == 31,
	   "32 nodes, 2..31 destinations");
	is_int(PARSE(&cfg, err, "--topology", "star", "--n", "4", "--seed",
		     "18446744073709551615", "--replication", "async"), 0,
	       "star graph, 64-bit seed, async");
	ok(cfg.topo.nnodes == 24 && cfg.seed == U64_MAX &&
	   cfg.params.replication == WC_REPL_ASYNC, "S_4, seed, replication");
	is_int(PARSE(&cfg, err, "--jobs", "3", "--knee-ratio", "2.5"), 0,
	       "--jobs and --knee-ratio");
	ok(cfg.jobs == 3 && cfg.knee_ratio == 2.5, "3 workers, knee at 2.5x");
	is_int(PARSE(&cfg, err, "--topology", "mesh"), 0, "defaults");
	ok(cfg.topo.nnodes == 64 && cfg.load == 0.1 && cfg.npoints == 1 &&
	   cfg.msg_bytes == 512 && cfg.cycles == 10000 && cfg.warmup == 1000 &&
	   cfg.drain == 10000 && cfg.dsts_max == 8 && !cfg.json &&
	   cfg.jobs == 0 && cfg.knee_ratio == 3,
	   "defaults: 8x8 mesh, load 0.1, 512 B, 10000 cycles");
}

static void test_runs(void)
{
	struct sim_config cfg;
	struct sim_result res[1], *r = &res[0];
	struct sim_sweep sw;
	char err[512], *a, *b, *c;
	double exp_lat;

	/* Same seed: byte-identical output; another seed: different. */
	PARSE(&cfg, err, "--topology", "torus", "--dims", "4x4", "--sweep",
	      "0.1:0.2:0.1", "--mcast-frac", "0.3", "--dsts", "uniform:2:6",
	      "--cycles", "2000", "--warmup", "200", "--msg-flits", "8");
	a = sweep_text(&cfg, 1, &sw);
	*r = sw.res[0];
	sim_sweep_free(&sw);
	b = run_text(&cfg, 1);
	ok(a && b && !strcmp(a, b), "same seed: identical output");
	cfg.seed = 2;
	c = run_text(&cfg, 1);
	ok(c && strcmp(a, c), "another seed: different output");
	free(a);
	free(b);
	free(c);

	/* Every measured message is accounted for, with its class. */
	ok(r->tagged > 0 && !r->lost &&
	   r->tagged == r->cls[SIM_UNICAST].count +
	   r->cls[SIM_MULTICAST].count + r->incomplete,
	   "tagged %llu = unicast + multicast + unfinished",
	   (unsigned long long)r->tagged);
	ok(r->cls[SIM_UNICAST].count && r->cls[SIM_MULTICAST].count,
	   "both classes measured");
	ok(fabs((double)r->cls[SIM_MULTICAST].count / r->tagged - 0.3) < 0.06,
	   "multicast share %.3f near 0.3",
	   (double)r->cls[SIM_MULTICAST].count / r->tagged);
	ok(!r->deadlocks && !r->route_errors, "no deadlock, no route error");

	/* Low load, unicast: accepted = offered, offered = nominal load. */
	PARSE(&cfg, err, "--load", "0.05", "--cycles", "20000", "--warmup",
	      "1000", "--msg-flits", "16");
	sim_run(&cfg, cfg.load, r);
	/* messages generated: Poisson with mean 64 * 0.05 / 16 * 20000 = 4000 */
	ok(fabs(r->offered - 0.05) < 5 * 0.05 / sqrt(4000.0),
	   "measured offered load %.4f is 0.05 within 5 sigma", r->offered);
	ok(fabs(r->accepted - r->offered) < 0.02 * r->offered,
	   "below saturation, accepted %.4f = offered %.4f", r->accepted,
	   r->offered);
	ok(!r->unstable && !r->incomplete, "0.05 is below saturation");
	ok(r->cls[SIM_UNICAST].p50 <= r->cls[SIM_UNICAST].p99 &&
	   r->cls[SIM_UNICAST].p99 <= r->cls[SIM_UNICAST].max &&
	   r->cls[SIM_UNICAST].mean <= r->cls[SIM_UNICAST].max,
	   "p50 <= p99 <= max");
	/* average distance of an 8x8 mesh between distinct nodes: 16/3;
	 * distances have sd 2.7, so 4000 samples: 5 sigma = 0.21
	 */
	ok(fabs(r->hops_mean - 16.0 / 3) < 0.21, "mean hops %.3f near 16/3",
	   r->hops_mean);
	/* each delivered flit crossed hops links: utilisation follows */
	ok(fabs(r->link_util_mean - r->delivered * 18.0 / 16 * r->hops_mean *
		64 / 224) < 0.01,
	   "link utilisation %.4f = delivered flits x hops / links",
	   r->link_util_mean);

	/* Near zero load every worm meets an empty network: Eq. 1. */
	PARSE(&cfg, err, "--topology", "hypercube", "--dim", "4", "--load",
	      "0.0005", "--cycles", "40000", "--warmup", "0", "--msg-flits",
	      "10", "--startup", "3", "--router-delay", "2", "--link-delay",
	      "1");
	sim_run(&cfg, cfg.load, r);
	/* L = header + 10 data + tail = 12 flits */
	exp_lat = 3 + r->hops_mean * (2 + 1) + (12 - 1);
	ok(r->cls[SIM_UNICAST].count > 20 &&
	   fabs(r->cls[SIM_UNICAST].mean - exp_lat) < 0.02 * exp_lat,
	   "zero-load mean latency %.2f = alpha + d(delta) + (L-1) = %.2f",
	   r->cls[SIM_UNICAST].mean, exp_lat);

	/* Far past saturation: flagged, and the run still ends. */
	PARSE(&cfg, err, "--dims", "4x4", "--load", "1", "--cycles", "2000",
	      "--warmup", "200", "--drain", "500");
	sim_run(&cfg, cfg.load, r);
	ok(r->unstable && r->saturated && r->accepted < r->offered,
	   "load 1 saturates a 4x4 mesh (unstable): accepted %.3f", r->accepted);
	ok(r->cycles_total <= 200 + 2000 + 500, "the drain limit ends the run");
}

/*
 * Test algorithms: every worm goes round the ring in the + direction on
 * VC 0 only (a cyclic channel dependency: deadlocks under load), or is
 * refused at odd destinations (route errors).
 */
static int ring_plus_route(const struct wc_route_ctx *ctx,
			   const struct wc_hdr *hdr, struct wc_route_req *req)
{
	req->nout = 1;
	req->out[0].hdr_words = 1;
	req->out[0].hdr_flits = (u16)hdr->nflits;
	if (hdr->words[0] == ctx->node)
		req->out[0].consume = true;
	else
		req->out[0].vc_mask = 1;	/* port 0: +x */
	return 0;
}

static int refuse_odd_route(const struct wc_route_ctx *ctx,
			    const struct wc_hdr *hdr, struct wc_route_req *req)
{
	if (hdr->words[0] & 1)
		return -EINVAL;
	return wc_algo_unicast_based.route(ctx, hdr, req);
}

static void test_failures(void)
{
	struct wc_algo algo = wc_algo_unicast_based;
	struct sim_config cfg;
	struct sim_result *r = calloc(1, sizeof(*r));
	char err[512], *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!r)
		return;
	PARSE(&cfg, err, "--topology", "torus", "--dims", "8", "--load", "0.9",
	      "--msg-flits", "32", "--watchdog", "100", "--cycles", "3000",
	      "--warmup", "0", "--drain", "1000");
	algo.name = "ring-plus";
	algo.route = ring_plus_route;
	algo.check = NULL;
	cfg.algo = &algo;
	is_int(sim_run(&cfg, cfg.load, r), 0, "a deadlocking run still ends");
	ok(r->deadlocks >= 1 && r->incomplete > 0,
	   "watchdog reported %llu deadlock(s), %llu messages unfinished",
	   (unsigned long long)r->deadlocks, (unsigned long long)r->incomplete);
	ok(strstr(r->dump, "waits") != NULL, "the first watchdog dump is kept");
	f = open_memstream(&text, &len);
	{
		struct sim_sweep one = { .n = 1, .res = r };

		sim_print_summary(f, &cfg, &one);
	}
	fclose(f);
	ok(text && strstr(text, "DEADLOCK") && strstr(text, "watchdog report"),
	   "the summary shows the deadlock and the dump");
	free(text);

	PARSE(&cfg, err, "--dims", "4x4", "--load", "0.05", "--cycles", "2000",
	      "--warmup", "0");
	algo = wc_algo_unicast_based;
	algo.route = refuse_odd_route;
	cfg.algo = &algo;
	sim_run(&cfg, cfg.load, r);
	ok(r->route_errors > 0 && r->lost > 0, "route errors %llu, lost %llu",
	   (unsigned long long)r->route_errors, (unsigned long long)r->lost);
	ok(r->tagged == r->cls[SIM_UNICAST].count + r->lost + r->incomplete,
	   "every measured message is delivered, lost or unfinished");
	free(r);
}

/* ------------------------------------------------------- saturation */

/*
 * A synthetic network of capacity @cap: latency t0 / (1 - load / cap)
 * (M/M/1-like, infinite at and past capacity), accepted min(load, cap)
 * times @after past capacity (1: flat plateau; < 1: the accepted
 * throughput falls, as in a network that is unstable past saturation).
 */
static void synth(struct sim_point *p, u32 n, double step, double t0,
		  double cap, double after)
{
	u32 i;

	for (i = 0; i < n; i++) {
		p[i].load = step * (i + 1);
		p[i].latency = p[i].load < cap ? t0 / (1 - p[i].load / cap) :
						 INFINITY;
		p[i].accepted = p[i].load <= cap ? p[i].load :
			cap * pow(after, (p[i].load - cap) / step);
	}
}

static void test_saturation_synthetic(void)
{
	struct sim_point p[40];
	struct sim_saturation s;
	struct sim_rng r;
	u32 i, noisy_bad = 0;

	/* knee: 1 / (1 - x / 0.2) = 3 at x = 0.1333 */
	synth(p, 30, 0.01, 50, 0.2, 1);
	sim_find_saturation(p, 30, 50, 3, &s);
	ok(s.knee == SIM_KNEE_FOUND && fabs(s.knee_load - 0.4 / 3) < 1e-9 &&
	   s.knee_lo == p[12].load && s.knee_hi == p[13].load,
	   "M/M/1-like curve: knee at %.6f (exact 0.4/3), between 0.13 and 0.14",
	   s.knee_load);
	ok(s.plateau && fabs(s.plateau_load - 0.2) < 1e-9 &&
	   fabs(s.plateau_accepted - 0.2) < 1e-9,
	   "plateau from 0.20 at 0.200 (got %.3f at %.3f)", s.plateau_load,
	   s.plateau_accepted);
	sim_find_saturation(p, 30, 50, 2, &s);
	ok(s.knee == SIM_KNEE_FOUND && fabs(s.knee_load - 0.1) < 1e-9,
	   "knee ratio 2: at %.6f (exact 0.1)", s.knee_load);
	/* a convex curve: linear interpolation in latency would be early */
	for (i = 0; i < 10; i++) {
		p[i].load = 0.01 * (i + 1);
		p[i].latency = 50 * exp(p[i].load / 0.02);
	}
	sim_find_saturation(p, 10, 50, 3, &s);
	ok(s.knee == SIM_KNEE_FOUND && s.knee_load > 0.02 &&
	   fabs(s.knee_load - 0.02 * log(3)) < 0.001,
	   "exponential curve: knee at %.4f (exact %.4f)", s.knee_load,
	   0.02 * log(3));

	/* past capacity the accepted throughput falls: plateau at the peak */
	synth(p, 30, 0.01, 50, 0.15, 0.9);
	sim_find_saturation(p, 30, 50, 3, &s);
	ok(s.plateau && fabs(s.plateau_load - 0.15) < 1e-9 &&
	   fabs(s.plateau_accepted - 0.15) < 1e-9,
	   "throughput falling past the peak: plateau from the peak, %.3f",
	   s.plateau_load);

	/* a slow bend: accepted grows by 0.3 of the load past 0.1 */
	for (i = 0; i < 20; i++) {
		p[i].load = 0.02 * (i + 1);
		p[i].accepted = p[i].load < 0.1 ? p[i].load :
				0.1 + 0.3 * (p[i].load - 0.1);
		p[i].latency = 10;
	}
	sim_find_saturation(p, 20, 10, 3, &s);
	ok(s.plateau && fabs(s.plateau_load - 0.1) < 1e-9 &&
	   s.knee == SIM_KNEE_NOT_REACHED,
	   "slope 0.3 past 0.1: plateau from %.2f; flat latency: knee not reached",
	   s.plateau_load);

	/* below capacity only, with 3% noise on accepted: no plateau */
	sim_rng_seed(&r, 5);
	for (i = 0; i < 200; i++) {
		u32 k;

		synth(p, 15, 0.01, 50, 0.2, 1);
		for (k = 0; k < 15; k++)
			p[k].accepted *= 1 + 0.06 * (sim_rng_uniform(&r) - 0.5);
		sim_find_saturation(p, 15, 50, 3, &s);
		if (s.plateau || s.knee != SIM_KNEE_FOUND)
			noisy_bad++;
	}
	ok(!noisy_bad, "200 noisy sweeps below capacity: no false plateau, knee found (%u bad)",
	   noisy_bad);

	/* already past the knee at the first load; no zero-load latency */
	synth(p, 10, 0.01, 50, 0.2, 1);
	sim_find_saturation(p + 9, 1, 50, 1.5, &s);
	ok(s.knee == SIM_KNEE_BELOW && s.knee_load == p[9].load && !s.plateau,
	   "one point past the knee: below the first load, no plateau");
	sim_find_saturation(p, 10, 0, 3, &s);
	ok(s.knee == SIM_KNEE_UNKNOWN, "no zero-load latency: knee unknown");
	sim_find_saturation(p, 0, 50, 3, &s);
	ok(s.knee == SIM_KNEE_NOT_REACHED && !s.plateau, "empty sweep");
	/* an unfinished point (no latency) counts as past the knee */
	p[5].latency = INFINITY;
	sim_find_saturation(p, 10, 50, 3, &s);
	ok(s.knee == SIM_KNEE_FOUND && s.knee_lo == p[4].load &&
	   s.knee_hi == p[5].load &&
	   fabs(s.knee_load - (p[4].load + 0.01 * (1 - p[4].latency / 150))) < 1e-12,
	   "a point with no latency crosses the knee: %.4f, 1/latency at 0 there",
	   s.knee_load);
}

/* Eq. 1 at zero load, exactly, from messages sent one at a time. */
static void test_zero_load(void)
{
	struct sim_zero_load z;
	struct sim_config cfg;
	char err[512];
	double want;

	PARSE(&cfg, err, "--topology", "hypercube", "--dim", "4",
	      "--msg-flits", "10", "--startup", "3", "--router-delay", "2",
	      "--link-delay", "1");
	is_int(sim_zero_load(&cfg, &z), 0, "zero-load run");
	/* L = header + 10 data + tail = 12 flits; mean of alpha + d delta + L - 1 */
	want = 3 + z.hops_mean * (2 + 1) + (12 - 1);
	ok(z.count == SIM_ZERO_LOAD_MSGS && !z.incomplete &&
	   fabs(z.mean - want) < 1e-9,
	   "4-cube: zero-load latency %.4f = alpha + d(delta) + L - 1 = %.4f exactly",
	   z.mean, want);
	/* mean distance between distinct nodes of a 4-cube: 4 x 8/15 = 2.13 */
	ok(fabs(z.hops_mean - 32.0 / 15) < 0.1, "mean hops %.3f near 32/15",
	   z.hops_mean);

	PARSE(&cfg, err, "--topology", "torus", "--dims", "4x4",
	      "--mcast-frac", "0.5", "--dsts", "4", "--msg-flits", "4");
	sim_zero_load(&cfg, &z);
	ok(z.cls_mean[SIM_MULTICAST] > z.cls_mean[SIM_UNICAST] &&
	   z.mean > z.cls_mean[SIM_UNICAST] && z.mean < z.cls_mean[SIM_MULTICAST],
	   "multicasts (one worm per destination) take longer alone: %.1f vs %.1f, all %.1f",
	   z.cls_mean[SIM_MULTICAST], z.cls_mean[SIM_UNICAST], z.mean);
}

/*
 * A small real sweep: both saturation points found where the table says,
 * the same output with 1, 2 and 3 workers, memory independent of the
 * run's length.
 */
static void test_sweep(void)
{
	struct sim_config cfg;
	struct sim_result *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct sim_sweep sw;
	char err[512], *t1, *t2, *t3;
	u32 i, knee_bad = 0;

	if (!a)
		return;
	PARSE(&cfg, err, "--sweep", "0.04:0.32:0.04", "--msg-flits", "16",
	      "--cycles", "3000", "--warmup", "500");
	t1 = sweep_text(&cfg, 1, &sw);
	/* Documentation/wormsim.rst: knee 0.15, plateau at about 0.19 */
	ok(sw.sat.knee == SIM_KNEE_FOUND && sw.sat.knee_load > 0.12 &&
	   sw.sat.knee_load < 0.18,
	   "8x8 mesh: latency reaches 3x zero-load (%.1f) at load %.3f",
	   sw.zero.mean, sw.sat.knee_load);
	ok(sw.sat.plateau && sw.sat.plateau_load > sw.sat.knee_load &&
	   sw.sat.plateau_accepted > 0.15 && sw.sat.plateau_accepted < 0.22,
	   "accepted plateau %.3f from load %.2f, past the knee",
	   sw.sat.plateau_accepted, sw.sat.plateau_load);
	ok(fabs(sw.zero.mean - (sw.zero.hops_mean * 2 + 17)) < 1e-9,
	   "zero-load latency is Eq. 1: d x 2 + 17");
	for (i = 0; i < sw.n; i++)
		if (sw.res[i].saturated !=
		    (sw.res[i].unstable || sw.res[i].lat_mean >= 3 * sw.zero.mean) ||
		    (sw.res[i].lat_mean >= 3 * sw.zero.mean) !=
		    (sw.res[i].load > sw.sat.knee_load))
			knee_bad++;
	ok(!knee_bad, "a point is saturated exactly when past the knee or unstable");
	ok(t1 && strstr(t1, "saturation, latency: mean latency reaches 3.0x") &&
	   strstr(t1, "saturation, throughput: accepted stops growing") &&
	   strstr(t1, "\"saturation\":{\"knee_ratio\":3.000,\"knee\":\"found\""),
	   "text and JSON report both points");
	sim_sweep_free(&sw);
	t2 = run_text(&cfg, 2);
	t3 = run_text(&cfg, 3);
	ok(t1 && t2 && t3 && !strcmp(t1, t2) && !strcmp(t1, t3),
	   "sweep output identical with 1, 2 and 3 workers (%zu bytes)",
	   t1 ? strlen(t1) : 0);
	free(t1);
	free(t2);
	free(t3);

	/* 20 times longer, 20 times the messages, the same memory */
	PARSE(&cfg, err, "--load", "0.1", "--msg-flits", "16", "--cycles",
	      "2000", "--warmup", "200");
	sim_run(&cfg, cfg.load, a);
	cfg.cycles = 40000;
	sim_run(&cfg, cfg.load, b);
	ok(b->cls[SIM_UNICAST].count > 15 * a->cls[SIM_UNICAST].count &&
	   b->mem_peak < a->mem_peak * 1.05,
	   "memory bounded: %llu messages in %llu bytes, %llu messages in %llu bytes",
	   (unsigned long long)a->cls[SIM_UNICAST].count,
	   (unsigned long long)a->mem_peak,
	   (unsigned long long)b->cls[SIM_UNICAST].count,
	   (unsigned long long)b->mem_peak);
	free(a);
}

/* --links-json: per-link busy and blocked cycles of the window. */
static char *links_json(const struct sim_config *cfg, u32 jobs,
			struct sim_sweep *sw)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (sim_sweep(cfg, jobs, sw))
		return NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	sim_print_links_json(f, cfg, sw);
	fclose(f);
	return buf;
}

static void test_links_json(void)
{
	struct sim_config cfg;
	struct sim_sweep sw, sw2;
	unsigned long long busy, blocked, sum = 0;
	char err[512], *j1, *j2, *p;
	u32 nlinks = 0;

	PARSE(&cfg, err, "--topology", "mesh", "--dims", "3x3", "--load", "0.1",
	      "--cycles", "2000", "--links-json", "x.json");
	ok(cfg.links_json && !strcmp(cfg.links_json, "x.json"),
	   "--links-json FILE parsed");
	j1 = links_json(&cfg, 1, &sw);
	j2 = links_json(&cfg, 2, &sw2);
	ok(j1 && !strncmp(j1, "[{\"topology\":\"mesh\",\"dims\":[3,3],\"nodes\":9,"
			  "\"load\":0.1,\"cycles\":2000,\"links\":[{\"node\":0,", 70),
	   "links JSON: identity, load, window cycles (%.70s)", j1 ? j1 : "");
	for (p = j1; p && (p = strstr(p, "\"busy\":")); p++) {
		if (sscanf(p, "\"busy\":%llu,\"blocked\":%llu}", &busy,
			   &blocked) != 2)
			break;
		sum += busy;
		nlinks++;
	}
	ok(nlinks == 24, "links JSON: the 24 directed links of a 3x3 mesh (%u)",
	   nlinks);
	ok(sw.n == 1 && nlinks &&
	   fabs((double)sum / 2000 / nlinks - sw.res[0].link_util_mean) < 1e-9,
	   "links JSON: busy cycles add up to the mean link utilisation (%.4f)",
	   sw.n ? sw.res[0].link_util_mean : 0);
	ok(j1 && j2 && !strcmp(j1, j2), "links JSON identical with 1 and 2 workers");
	free(j1);
	free(j2);
	sim_sweep_free(&sw);
	sim_sweep_free(&sw2);
}

static void test_plot(void)
{
	struct sim_config cfg;
	struct sim_sweep sw;
	char dir[] = "/tmp/test_wormsim.XXXXXX", prefix[128], path[160], err[512];
	int ret;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(prefix, sizeof(prefix), "%s/plot", dir);
	PARSE(&cfg, err, "--dims", "4x4", "--sweep", "0.05:0.1:0.05",
	      "--cycles", "500", "--warmup", "0");
	sim_sweep(&cfg, 0, &sw);
	ret = sim_plot(prefix, &cfg, &sw, err, sizeof(err));
	sim_sweep_free(&sw);
	snprintf(path, sizeof(path), "%s.dat", prefix);
	ok(ret != 1 && !access(path, R_OK), "plot data written (%s)",
	   ret ? err : "gnuplot ran");
	unlink(path);
	snprintf(path, sizeof(path), "%s.gp", prefix);
	ok(!access(path, R_OK), "gnuplot script written");
	unlink(path);
	snprintf(path, sizeof(path), "%s.png", prefix);
	ok(ret == 2 || !access(path, R_OK), "PNG made when gnuplot ran");
	unlink(path);
	snprintf(path, sizeof(path), "%s.svg", prefix);
	ok(ret == 2 || !access(path, R_OK), "SVG made when gnuplot ran");
	unlink(path);
	rmdir(dir);
}

/* --multicast and the RT options: parsing, tables, refusals. */
static void test_multicast_args(void)
{
	struct sim_config cfg;
	char err[512];
	u32 i;
	static const char *const bad[][12] = {
		{ "--multicast", "bogus" },
		{ "--multicast", "DSTM-1", "--topology", "torus", "--vcs", "1" },
		{ "--multicast", "dstm-1" },		/* 8x8 mesh */
		{ "--multicast", "dstm-2", "--topology", "torus", "--dims", "4x4x4" },
		{ "--multicast", "rt", "--topology", "torus", "--cons", "1" },
		{ "--multicast", "spam", "--topology", "hypercube", "--dim", "9" },
		{ "--multicast", "spam", "--algo", "unicast-based" },
		{ "--rt-pair", "best" },
		{ "--multicast", "dstm-1", "--topology", "torus", "--rt-seed", "3" },
		{ "--multicast", "rt", "--topology", "torus", "--rt-pair", "nope" },
		{ "--multicast", "rt", "--topology", "torus", "--rt-trials", "0" },
		{ "--multicast", "rt", "--topology", "torus", "--rt-trials", "100001" },
		{ "--multicast", "rt", "--topology", "torus", "--rt-seed", "-1" },
		{ "--multicast", "rt", "--topology", "torus", "--dims", "6x4",
		  "--rt-pair", "path" },
		/* asynchronous tree replication with buffers below a worm */
		{ "--multicast", "dstm-1", "--topology", "torus", "--vcs", "1",
		  "--replication", "async", "--mcast-frac", "0.5" },
		{ "--multicast", "spam", "--replication", "async", "--buf-flits",
		  "30", "--msg-flits", "16", "--mcast-frac", "0.1", "--dsts", "8" },
	};

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		char *argv[16] = { "wormsim" };
		char words[200] = "";
		int argc = 1, ret;
		u32 j;

		for (j = 0; j < 12 && bad[i][j]; j++) {
			argv[argc++] = (char *)bad[i][j];
			snprintf(words + strlen(words), sizeof(words) - strlen(words),
				 " '%s'", bad[i][j]);
		}
		ret = sim_parse_args(argc, argv, &cfg, err, sizeof(err));
		ok(ret == 1 && err[0] && !cfg.table, "rejects%s: %s", words, err);
	}
	ok(PARSE(&cfg, err, "--multicast", "spam", "--replication", "async",
		 "--buf-flits", "30", "--msg-flits", "16", "--mcast-frac", "0.1",
		 "--dsts", "7") == 0 && sim_max_worm_flits(&cfg) == 13 + 16 + 1,
	   "async spam accepted when a worm (13 header flits at most, 16 data, tail) fits in 30 flits: %s",
	   err);
	sim_config_free(&cfg);
	ok(PARSE(&cfg, err, "--multicast", "dstm-1", "--topology", "torus",
		 "--replication", "async") == 0,
	   "async with unicast traffic only: nothing replicates, accepted");
	sim_config_free(&cfg);

	is_int(PARSE(&cfg, err, "--multicast", "unicast", "--topology", "torus"),
	       0, "--multicast unicast");
	ok(cfg.algo == &wc_algo_unicast_based && !cfg.table &&
	   cfg.mcast_scheme == WORMCAST_MCAST_UNICAST,
	   "unicast: the built-in algorithm, no table");
	sim_config_free(&cfg);

	is_int(PARSE(&cfg, err, "--multicast", "dstm-1", "--topology", "torus",
		     "--vcs", "1"), 0, "dstm-1 on the default 8x8 torus, one VC");
	ok(cfg.algo == &wc_algo_tree && cfg.table &&
	   cfg.table_len == wc_trees_table_size(2, 64) &&
	   cfg.mcast_scheme == WORMCAST_MCAST_DSTM1 && cfg.trees_info.cd == 14,
	   "dstm-1: tree algorithm, %zu table bytes, combined diameter %u (2N-2 on even N)",
	   cfg.table_len, cfg.trees_info.cd);
	{
		void *t;
		size_t len;
		const char *why;

		ok(!wc_trees_table(WORMCAST_MCAST_DSTM1, &cfg.topo, NULL, &t, &len,
				   &why) && len == cfg.table_len &&
		   !memcmp(t, cfg.table, len),
		   "the table is the daemon library's bytes, unchanged");
		free(t);
	}
	sim_config_free(&cfg);
	sim_config_free(&cfg);	/* idempotent */
	ok(!cfg.table, "sim_config_free() frees the table");

	is_int(PARSE(&cfg, err, "--multicast", "rt", "--topology", "torus",
		     "--dims", "6x6", "--rt-pair", "best", "--rt-seed", "7",
		     "--rt-trials", "9"), 0, "rt with a pair, a seed and trials");
	ok(cfg.trees_opts.rt_pair == WC_RT_PAIR_BEST && cfg.trees_opts.seed == 7 &&
	   cfg.trees_opts.trials == 9 && cfg.trees_info.trial < 9,
	   "rt options kept; chosen trial %u of 9", cfg.trees_info.trial);
	{
		char label[32];

		ok(!strcmp(sim_scheme_label(&cfg, label, sizeof(label)), "rt-best"),
		   "label rt-best");
	}
	sim_config_free(&cfg);
	is_int(PARSE(&cfg, err, "--multicast", "rt", "--topology", "torus",
		     "--rt-pair", "worst"), 0, "rt pair alias worst");
	ok(cfg.trees_opts.rt_pair == WC_RT_PAIR_PATH && cfg.trees_info.cd == 62,
	   "worst = path: two Hamilton paths on 8x8, combined diameter %u",
	   cfg.trees_info.cd);
	sim_config_free(&cfg);
	is_int(PARSE(&cfg, err, "--multicast", "rt", "--topology", "torus"), 0,
	       "rt defaults");
	ok(cfg.trees_opts.rt_pair == WC_RT_PAIR_AVERAGE && cfg.trees_opts.seed == 0 &&
	   cfg.trees_opts.trials == WC_TREES_DEFAULT_TRIALS,
	   "rt defaults: average, seed 0, %u trials", WC_TREES_DEFAULT_TRIALS);
	sim_config_free(&cfg);
}

/*
 * A short run per tree scheme: everything delivered, no deadlock, no
 * routing error; the output does not depend on the number of workers
 * (each run has its own tree set).
 */
static void test_multicast_runs(void)
{
	static const char *const schemes[][3] = {
		{ "spam" }, { "dstm-1" }, { "dstm-2" },
		{ "rt", "--rt-pair", "average" }, { "rt", "--rt-pair", "best" },
		{ "rt", "--rt-pair", "path" },
	};
	struct sim_config cfg;
	struct sim_result res;
	char err[512], *a, *b;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(schemes); i++) {
		char *argv[40] = {
			"wormsim", "--topology", "torus", "--vcs", "1",
			"--startup", "20", "--router-delay", "2",
			"--msg-flits", "8", "--mcast-frac", "0.2", "--dsts",
			"uniform:2:12", "--cycles", "6000", "--warmup", "300",
			"--load", "0.008", "--multicast",
		};
		int argc = 22, ret;
		u32 j;
		u64 done;

		for (j = 0; j < 3 && schemes[i][j]; j++)
			argv[argc++] = (char *)schemes[i][j];
		if (!strcmp(schemes[i][0], "rt")) {
			argv[argc++] = "--rt-trials";
			argv[argc++] = "10";
		}
		ret = sim_parse_args(argc, argv, &cfg, err, sizeof(err));
		if (!ok(!ret, "8x8 torus, %s %s: parses %s", schemes[i][0],
			schemes[i][2] ? schemes[i][2] : "", err))
			continue;
		ret = sim_run(&cfg, cfg.load, &res);
		done = res.cls[SIM_UNICAST].count + res.cls[SIM_MULTICAST].count;
		ok(!ret && res.tagged > 300 && done == res.tagged && !res.incomplete &&
		   !res.lost && !res.deadlocks && !res.route_errors &&
		   res.cls[SIM_MULTICAST].count > 50,
		   "%s %s: %llu messages (%llu multicast) all delivered, no deadlock or route error (%llu, %llu)",
		   schemes[i][0], schemes[i][2] ? schemes[i][2] : "",
		   (unsigned long long)res.tagged,
		   (unsigned long long)res.cls[SIM_MULTICAST].count,
		   (unsigned long long)res.deadlocks,
		   (unsigned long long)res.route_errors);
		sim_config_free(&cfg);
	}

	/* Zero load: one message at a time, no loss; unicast on the tree */
	PARSE(&cfg, err, "--topology", "torus", "--dims", "6x6", "--vcs", "1",
	      "--multicast", "dstm-1", "--msg-flits", "4", "--cycles", "500");
	{
		struct sim_zero_load z;
		int zret = sim_zero_load(&cfg, &z);

		ok(!zret && z.count == SIM_ZERO_LOAD_MSGS &&
		   !z.incomplete && z.hops_mean > 0,
		   "dstm-1 zero load: %llu unicasts, %.2f hops (tree paths)",
		   (unsigned long long)z.count, z.hops_mean);
	}
	sim_config_free(&cfg);

	/* SPAM on a mesh, asynchronous replication with whole-worm buffers */
	is_int(PARSE(&cfg, err, "--multicast", "spam", "--dims", "6x6",
		     "--replication", "async", "--buf-flits", "64",
		     "--msg-flits", "16", "--mcast-frac", "0.5", "--dsts",
		     "uniform:2:20", "--load", "0.015", "--cycles", "3000"),
	       0, "spam on a 6x6 mesh, asynchronous: %s", err);
	sim_run(&cfg, cfg.load, &res);
	ok(res.tagged > 40 && !res.incomplete && !res.lost && !res.deadlocks &&
	   !res.route_errors && res.cls[SIM_MULTICAST].count > 20,
	   "spam mesh async: %llu messages delivered, no deadlock",
	   (unsigned long long)res.tagged);
	sim_config_free(&cfg);

	/* Determinism across workers with one tree set per run */
	PARSE(&cfg, err, "--topology", "torus", "--vcs", "1", "--multicast",
	      "dstm-2", "--sweep", "0.02:0.06:0.02", "--msg-flits", "8",
	      "--mcast-frac", "0.2", "--cycles", "1500", "--warmup", "100");
	a = run_text(&cfg, 1);
	b = run_text(&cfg, 3);
	ok(a && b && !strcmp(a, b) &&
	   strstr(a, "trees:   multicast dstm-2; combined diameter 14") &&
	   strstr(a, "\"multicast\":{\"scheme\":\"dstm-2\"") &&
	   strstr(a, "torus,8x8,dstm-2,"),
	   "dstm-2 sweep: identical output with 1 and 3 workers; text, JSON and CSV name the scheme");
	free(a);
	free(b);
	sim_config_free(&cfg);
}

int main(void)
{
	test_hist();
	test_rng();
	test_poisson();
	test_args();
	test_runs();
	test_failures();
	test_saturation_synthetic();
	test_zero_load();
	test_sweep();
	test_plot();
	test_links_json();
	test_multicast_args();
	test_multicast_runs();
	return done_testing();
}
