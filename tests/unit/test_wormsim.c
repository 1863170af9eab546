// SPDX-License-Identifier: GPL-2.0
/*
 * wormsim's pure parts (PRNG, Poisson arrivals, percentiles, argument
 * parsing) and short runs on the engine: determinism, conservation, and
 * the zero-load latency of Eq. 1 measured through the simulator.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "../../tools/wormsim/sim.c"

/* ------------------------------------------------------------ helpers */

static int parse(struct sim_config *cfg, char *err, size_t len, ...)
{
	char *argv[64];
	int argc = 0;
	va_list ap;
	char *s;

	argv[argc++] = "wormsim";
	va_start(ap, len);
	while ((s = va_arg(ap, char *)) && argc < 63)
		argv[argc++] = s;
	va_end(ap);
	argv[argc] = NULL;
	return sim_parse_args(argc, argv, cfg, err, len);
}

#define PARSE(cfg, err, ...) parse(cfg, err, sizeof(err), __VA_ARGS__, (char *)NULL)

/* Everything wormsim prints for one configuration, as one string. */
static char *run_text(const struct sim_config *cfg, struct sim_result *res)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	u32 i;

	for (i = 0; i < cfg->npoints; i++)
		if (sim_run(cfg, sim_point_load(cfg, i), &res[i]))
			fprintf(f, "run %u failed\n", i);
	sim_print_summary(f, cfg, res, cfg->npoints);
	sim_print_json(f, cfg, res, cfg->npoints);
	sim_print_csv(f, cfg, res, cfg->npoints);
	fclose(f);
	return buf;
}

/* ------------------------------------------------------------ tests */

static void test_percentile(void)
{
	static const u32 pm[] = { 0, 1, 10, 250, 500, 900, 990, 999, 1000 };
	struct sim_rng r;
	u64 v[300];
	int bad = 0, cases = 0;
	size_t n, i, j, k;

	sim_rng_seed(&r, 7);
	for (n = 1; n <= 300; n += (n < 20 ? 1 : 37)) {
		for (i = 0; i < n; i++)
			v[i] = sim_rng_below(&r, 50);	/* many ties */
		sim_sort(v, n);
		for (i = 1; i < n; i++)
			if (v[i - 1] > v[i])
				bad++;
		for (k = 0; k < ARRAY_SIZE(pm) + 5; k++) {
			u32 p = k < ARRAY_SIZE(pm) ? pm[k] : sim_rng_below(&r, 1001);
			u64 want = U64_MAX;

			/* brute force: smallest sample with at least p/1000 of
			 * the samples at or below it (and at least one)
			 */
			for (i = 0; i < n; i++) {
				size_t below = 0;

				for (j = 0; j < n; j++)
					below += v[j] <= v[i];
				if (below * 1000 >= (size_t)p * n && below >= 1 &&
				    v[i] < want)
					want = v[i];
			}
			cases++;
			if (sim_percentile(v, n, p) != want) {
				bad++;
				diag("n %zu p %u: got %llu want %llu", n, p,
				     (unsigned long long)sim_percentile(v, n, p),
				     (unsigned long long)want);
			}
		}
	}
	ok(!bad, "percentiles match a brute-force count over %d cases", cases);
	v[0] = 5;
	is_int(sim_percentile(v, 1, 990), 5, "p99 of one sample is that sample");
	for (i = 0; i < 100; i++)
		v[i] = i + 1;
	is_int(sim_percentile(v, 100, 500), 50, "p50 of 1..100 is 50");
	is_int(sim_percentile(v, 100, 990), 99, "p99 of 1..100 is 99");
	is_int(sim_percentile(v, 100, 1000), 100, "p100 of 1..100 is 100");
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
	is_int(PARSE(&cfg, err, "--topology", "mesh"), 0, "defaults");
	ok(cfg.topo.nnodes == 64 && cfg.load == 0.1 && cfg.npoints == 1 &&
	   cfg.msg_bytes == 512 && cfg.cycles == 10000 && cfg.warmup == 1000 &&
	   cfg.drain == 10000 && cfg.dsts_max == 8 && !cfg.json,
	   "defaults: 8x8 mesh, load 0.1, 512 B, 10000 cycles");
}

static void test_runs(void)
{
	struct sim_config cfg;
	struct sim_result res[2], res2[2], *r = &res[0];
	char err[512], *a, *b, *c;
	double exp_lat;

	/* Same seed: byte-identical output; another seed: different. */
	PARSE(&cfg, err, "--topology", "torus", "--dims", "4x4", "--sweep",
	      "0.1:0.2:0.1", "--mcast-frac", "0.3", "--dsts", "uniform:2:6",
	      "--cycles", "2000", "--warmup", "200", "--msg-flits", "8");
	a = run_text(&cfg, res);
	b = run_text(&cfg, res2);
	ok(a && b && !strcmp(a, b), "same seed: identical output");
	cfg.seed = 2;
	c = run_text(&cfg, res2);
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
	ok(!r->saturated && !r->incomplete, "0.05 is below saturation");
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
	ok(r->saturated && r->accepted < r->offered,
	   "load 1 saturates a 4x4 mesh: accepted %.3f", r->accepted);
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
	sim_print_summary(f, &cfg, r, 1);
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

static void test_plot(void)
{
	struct sim_config cfg;
	struct sim_result res[2];
	char dir[] = "/tmp/test_wormsim.XXXXXX", prefix[128], path[160], err[512];
	int ret;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(prefix, sizeof(prefix), "%s/plot", dir);
	PARSE(&cfg, err, "--dims", "4x4", "--sweep", "0.05:0.1:0.05",
	      "--cycles", "500", "--warmup", "0");
	sim_run(&cfg, sim_point_load(&cfg, 0), &res[0]);
	sim_run(&cfg, sim_point_load(&cfg, 1), &res[1]);
	ret = sim_plot(prefix, &cfg, res, 2, err, sizeof(err));
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

int main(void)
{
	test_percentile();
	test_rng();
	test_poisson();
	test_args();
	test_runs();
	test_failures();
	test_plot();
	return done_testing();
}
