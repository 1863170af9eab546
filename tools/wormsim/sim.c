// SPDX-License-Identifier: GPL-2.0
/*
 * wormsim's core: traffic generation, one simulation run on the engine,
 * statistics and output.  See sim.h and Documentation/wormsim.rst.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ftmcast.h"
#include "sim.h"
#include "plans_table.h"
#include "mcast_kind.h"
#include "plh.h"

extern char **environ;

/* ---------------------------------------------------------------- PRNG */

static u64 splitmix64(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void sim_rng_seed(struct sim_rng *r, u64 seed)
{
	u64 x = seed;
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static inline u64 rotl(u64 x, int k)
{
	return (x << k) | (x >> (64 - k));
}

u64 sim_rng_next(struct sim_rng *r)
{
	u64 *s = r->s;
	u64 result = rotl(s[1] * 5, 7) * 9;
	u64 t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double sim_rng_uniform(struct sim_rng *r)
{
	return (double)(sim_rng_next(r) >> 11) * 0x1.0p-53;
}

/* Lemire's multiply-and-reject: exact uniformity on [0, n). */
u32 sim_rng_below(struct sim_rng *r, u32 n)
{
	u64 m = (u64)(u32)(sim_rng_next(r) >> 32) * n;
	u32 low = (u32)m;

	if (low < n) {
		u32 threshold = (u32)-n % n;

		while (low < threshold) {
			m = (u64)(u32)(sim_rng_next(r) >> 32) * n;
			low = (u32)m;
		}
	}
	return (u32)(m >> 32);
}

double sim_rng_exp(struct sim_rng *r, double rate)
{
	/* 1 - U is in (0, 1], so the logarithm is finite. */
	return -log(1.0 - sim_rng_uniform(r)) / rate;
}

/* ---------------------------------------------------------- statistics */

#define HIST_SUB	SIM_HIST_SUB_BITS
#define HIST_EXACT	(2u << HIST_SUB)	/* values with a bucket each */

void sim_hist_init(struct sim_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = U64_MAX;
}

static u32 hist_index(u64 v)
{
	u32 e;

	if (v < HIST_EXACT)
		return (u32)v;
	e = 63 - (u32)__builtin_clzll(v);	/* 2^e <= v, e > HIST_SUB */
	if (e >= SIM_HIST_MAX_BITS)
		return SIM_HIST_BUCKETS - 1;
	return HIST_EXACT + (e - HIST_SUB - 1) * (1u << HIST_SUB) +
	       (u32)((v >> (e - HIST_SUB)) - (1u << HIST_SUB));
}

/* Smallest value of bucket @i, and its width. */
static u64 hist_low(u32 i, u64 *width)
{
	u32 e;

	if (i < HIST_EXACT) {
		*width = 1;
		return i;
	}
	i -= HIST_EXACT;
	e = HIST_SUB + 1 + i / (1u << HIST_SUB);
	*width = 1ull << (e - HIST_SUB);
	return ((1ull << HIST_SUB) + i % (1u << HIST_SUB)) << (e - HIST_SUB);
}

void sim_hist_add(struct sim_hist *h, u64 v)
{
	h->bucket[hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

double sim_hist_mean(const struct sim_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0;
}

u64 sim_hist_percentile(const struct sim_hist *h, u32 permille)
{
	/* rank = ceil(permille * n / 1000), in integers to avoid rounding */
	u64 rank = ((u64)permille * h->count + 999) / 1000, seen = 0;
	u64 low, width, v;
	u32 i;

	if (!h->count)
		return 0;
	if (rank <= 1)
		return h->min;
	if (rank >= h->count)
		return h->max;
	for (i = 0; seen + h->bucket[i] < rank; i++)
		seen += h->bucket[i];
	/* the middle of the bucket: at most width / 2 from any value in it */
	low = hist_low(i, &width);
	v = low + (width - 1) / 2;
	return v < h->min ? h->min : v > h->max ? h->max : v;
}

/* ------------------------------------------------------ argument parsing */

/* The algorithms wormsim knows, by their engine names. */
static const struct wc_algo *const sim_algos[] = {
	&wc_algo_unicast_based,
	&wc_algo_plh,
};

static int errf(char *err, size_t len, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int errf(char *err, size_t len, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return ret;
}

/* Decimal digits only: no sign, no blanks, no trailing garbage. */
static bool parse_u64(const char *s, u64 min, u64 max, u64 *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static bool parse_double(const char *s, double *out)
{
	double v;
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return false;
	*out = v;
	return true;
}

/* "8x8", "4x4x4" or "64": 1 to WC_MAX_DIMS sizes separated by 'x'. */
static bool parse_dims(const char *s, u32 *dims, u32 *ndims)
{
	unsigned long v;
	char *end;

	*ndims = 0;
	for (;;) {
		if (*s < '0' || *s > '9' || *ndims == WC_MAX_DIMS)
			return false;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || v > WC_MAX_NODES)
			return false;
		dims[(*ndims)++] = (u32)v;
		if (!*end)
			return true;
		if (*end != 'x')
			return false;
		s = end + 1;
	}
}

enum {
	OPT_TOPOLOGY = 256, OPT_DIMS, OPT_DIM, OPT_N,
	OPT_FLIT_BYTES, OPT_BUF_FLITS, OPT_VCS, OPT_INJ, OPT_CONS,
	OPT_ROUTER_DELAY, OPT_LINK_DELAY, OPT_STARTUP, OPT_REPLICATION,
	OPT_WATCHDOG, OPT_LOAD, OPT_MSG_BYTES, OPT_MSG_FLITS, OPT_MCAST_FRAC,
	OPT_DSTS, OPT_ALGO, OPT_SEED, OPT_CYCLES, OPT_WARMUP, OPT_DRAIN,
	OPT_CSV, OPT_SWEEP, OPT_PLOT, OPT_JSON, OPT_JOBS, OPT_KNEE,
	OPT_MULTICAST, OPT_RT_PAIR, OPT_RT_SEED, OPT_RT_TRIALS,
	OPT_MCAST0, OPT_DRAWS, OPT_SEND_OVH, OPT_RECV_OVH, OPT_LINKS_JSON,
	OPT_BCAST, OPT_SRC, OPT_BCAST_RELAY, OPT_FAULT_LINK, OPT_RANDOM_FAULTS, OPT_FAULT_INFO,
	OPT_FT_STRATEGY, OPT_FT_DETOUR,
};

static const struct option long_opts[] = {
	{ "topology", required_argument, NULL, OPT_TOPOLOGY },
	{ "dims", required_argument, NULL, OPT_DIMS },
	{ "dim", required_argument, NULL, OPT_DIM },
	{ "n", required_argument, NULL, OPT_N },
	{ "flit-bytes", required_argument, NULL, OPT_FLIT_BYTES },
	{ "buf-flits", required_argument, NULL, OPT_BUF_FLITS },
	{ "vcs", required_argument, NULL, OPT_VCS },
	{ "inj", required_argument, NULL, OPT_INJ },
	{ "cons", required_argument, NULL, OPT_CONS },
	{ "router-delay", required_argument, NULL, OPT_ROUTER_DELAY },
	{ "link-delay", required_argument, NULL, OPT_LINK_DELAY },
	{ "startup", required_argument, NULL, OPT_STARTUP },
	{ "replication", required_argument, NULL, OPT_REPLICATION },
	{ "watchdog", required_argument, NULL, OPT_WATCHDOG },
	{ "load", required_argument, NULL, OPT_LOAD },
	{ "msg-bytes", required_argument, NULL, OPT_MSG_BYTES },
	{ "msg-flits", required_argument, NULL, OPT_MSG_FLITS },
	{ "mcast-frac", required_argument, NULL, OPT_MCAST_FRAC },
	{ "dsts", required_argument, NULL, OPT_DSTS },
	{ "algo", required_argument, NULL, OPT_ALGO },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "cycles", required_argument, NULL, OPT_CYCLES },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "drain", required_argument, NULL, OPT_DRAIN },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "sweep", required_argument, NULL, OPT_SWEEP },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "links-json", required_argument, NULL, OPT_LINKS_JSON },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "knee-ratio", required_argument, NULL, OPT_KNEE },
	{ "multicast", required_argument, NULL, OPT_MULTICAST },
	{ "rt-pair", required_argument, NULL, OPT_RT_PAIR },
	{ "rt-seed", required_argument, NULL, OPT_RT_SEED },
	{ "rt-trials", required_argument, NULL, OPT_RT_TRIALS },
	{ "mcast0", required_argument, NULL, OPT_MCAST0 },
	{ "draws", required_argument, NULL, OPT_DRAWS },
	{ "send-ovh", required_argument, NULL, OPT_SEND_OVH },
	{ "recv-ovh", required_argument, NULL, OPT_RECV_OVH },
	{ "bcast", required_argument, NULL, OPT_BCAST },
	{ "src", required_argument, NULL, OPT_SRC },
	{ "bcast-relay", required_argument, NULL, OPT_BCAST_RELAY },
	{ "fault-link", required_argument, NULL, OPT_FAULT_LINK },
	{ "random-faults", required_argument, NULL, OPT_RANDOM_FAULTS },
	{ "fault-info", required_argument, NULL, OPT_FAULT_INFO },
	{ "ft-strategy", required_argument, NULL, OPT_FT_STRATEGY },
	{ "ft-detour", no_argument, NULL, OPT_FT_DETOUR },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void sim_usage(FILE *f)
{
	u32 i;

	fputs(
"Usage: wormsim [OPTION]...\n"
"Run synthetic traffic through the wormcast flit-level engine (the code of\n"
"the kernel module) and report latency, throughput and link utilisation.\n"
"The same seed gives byte-identical output.\n"
"\n"
"Topology:\n"
"  --topology KIND      mesh, torus, hypercube or star (default mesh)\n"
"  --dims AxB[xC]       mesh/torus sizes, 1 to 3 dimensions (default 8x8)\n"
"  --dim N              hypercube dimension, 1..12 (default 6)\n"
"  --n N                star graph order, 2..7 (default 5)\n"
"\n"
"Engine (defaults are the engine's, as for 'ip link add'):\n"
"  --flit-bytes N       bytes per flit (default 32)\n"
"  --buf-flits N        flits per virtual-channel buffer (default 1)\n"
"  --vcs N              virtual channels per link (default 1; 2 on a torus,\n"
"                       the diameter on a star graph)\n"
"  --inj N              injection channels per node (default 1)\n"
"  --cons N             consumption channels per node (default 2)\n"
"  --router-delay N     cycles to route a header (default 1)\n"
"  --link-delay N       cycles to cross a link (default 1)\n"
"  --startup N          startup cycles per worm, alpha (default 0)\n"
"  --replication MODE   lockstep or async (default lockstep)\n"
"  --watchdog N         cycles without progress reported as deadlock\n"
"                       (default 10000)\n"
"  --algo NAME          routing algorithm (default unicast-based); one of:\n"
"                      ", f);
	for (i = 0; i < ARRAY_SIZE(sim_algos); i++)
		fprintf(f, " %s", sim_algos[i]->name);
	fputs(
"\n"
"\n"
"Multicast scheme (the kernel's; tables from the daemon's library):\n"
"  --multicast SCHEME   unicast (default: --algo, one worm per destination),\n"
"                       or a tree scheme that routes every message, unicast\n"
"                       included, in spanning trees: spam (one BFS tree),\n"
"                       dstm-1, dstm-2 (two edge-disjoint trees, 2-D torus),\n"
"                       rt (two Roskind-Tarjan trees, 2-D torus); tree\n"
"                       schemes need no virtual channels (--vcs 1 is fine),\n"
"                       two-tree schemes 2 consumption channels, and\n"
"                       asynchronous replication buffers of a whole worm\n"
"                       Label schemes (any topology, a Hamiltonian labeling):\n"
"                       hamiltonian, dual-path, multipath (path worms with\n"
"                       intermediate reception), star-tree (asynchronous\n"
"                       replication); all need 2 consumption channels;\n"
"                       ocms, otms: each multicast sent as the planner's\n"
"                       optimal star (daemon/lib/pathplan.c), as the kernel\n"
"                       sends wormcastd's plans; multiphase (--mcast0\n"
"                       only): receivers send on, as unicast does there;\n"
"                       ftmesh (2-D mesh, --vcs 4): Wu and Chen's fault-\n"
"                       tolerant minimal multicast routed by the routers,\n"
"                       unicast included, around faulty blocks\n"
"  --ft-strategy N      ftmesh: Strategy 1 (random) or 2 (larger offset,\n"
"                       default) at separating points; 3: each multicast\n"
"                       sent as the planner's Strategy 3 plan (greedy MT\n"
"                       trees, daemon/lib/ftmcast.c) as the kernel sends\n"
"                       wormcastd's plans, unicast by Strategy 2\n"
"  --ft-detour          ftmesh: a destination the source cannot reach\n"
"                       minimally gets a unicast detour through a waypoint\n"
"                       (needs --vcs 8) instead of being left out\n"
"  --rt-pair PAIR       rt: average (default), best or path (the paper's\n"
"                       Tarjan(average), Tarjan(best), Tarjan(path))\n"
"  --rt-seed N          rt average/best: trial i uses random order N + i\n"
"                       (default 0)\n"
"  --rt-trials N        rt average/best: random orders tried, 1..100000\n"
"                       (default 100)\n"
"  --fault-link A:B     two-tree schemes: the link between adjacent nodes A\n"
"                       and B is faulty (repeatable): the trees table carries\n"
"                       it, as wormcastd's does, and the engine has it failed;\n"
"                       messages take the tree that avoids it (DSTM section 7,\n"
"                       global information)\n"
"  --random-faults N    two-tree schemes: N more faulty links drawn at random\n"
"                       with --seed; ftmesh: N faulty nodes drawn with --seed\n"
"  --fault-info MODE    global (default: the table carries the faults) or\n"
"                       local (one faulty link; the sources know nothing, the\n"
"                       router before the link consumes the message and\n"
"                       re-injects it on the good tree)\n"
"\n"
"Traffic (Poisson arrivals at every node, uniform random destinations):\n"
"  --load F             offered load in data flits per node per cycle,\n"
"                       0 < F <= injection channels (default 0.1); a node\n"
"                       generates F / msg-flits messages per cycle on average\n"
"  --sweep A:B:S        run every load A, A+S, ... <= B (one row each);\n"
"                       exclusive with --load\n"
"  --jobs N             run the loads of a sweep on N threads (default: one\n"
"                       per online CPU); the output does not depend on N\n"
"  --msg-bytes N        message payload in bytes (default 512)\n"
"  --msg-flits N        message payload in flits (N * flit-bytes bytes)\n"
"  --mcast-frac F       fraction of messages that are multicast, 0..1\n"
"                       (default 0)\n"
"  --dsts N             destinations of a multicast (default min(8, nodes-1))\n"
"  --dsts uniform:A:B   ... drawn uniformly in A..B (2 <= A <= B < nodes)\n"
"  --seed N             seed of the pseudo-random generator (default 1)\n"
"\n"
"Run length (cycles):\n"
"  --warmup N           cycles simulated before measuring (default 1000)\n"
"  --cycles N           measured cycles (default 10000)\n"
"  --drain N            extra cycles allowed for the messages generated while\n"
"                       measuring to finish (default: --cycles); a run where\n"
"                       some do not finish, or whose accepted throughput is\n"
"                       below 95% of the offered load, is marked unstable\n"
"\n"
"Saturation:\n"
"  --knee-ratio F       a load is past the latency knee (saturated) when its\n"
"                       mean latency is at least F times the zero-load\n"
"                       latency, measured with messages sent one at a time\n"
"                       (default 3, F > 1); a sweep also reports where the\n"
"                       accepted throughput stops growing (the plateau)\n"
"\n"
"Zero-load multicast (the star paper's figures; no load, no sweep):\n"
"  --mcast0 K           multicasts from a random source to K random others,\n"
"                       one at a time, each into an empty network; prints\n"
"                       the mean multicast latency (the last destination's\n"
"                       reception).  Under --multicast unicast the multicast\n"
"                       is the multi-phase unicast-based baseline: receivers\n"
"                       re-inject (recursive halving of the label-sorted\n"
"                       chain, ceil(log2(K + 1)) phases)\n"
"  --draws N            (source, group) draws averaged (default 100)\n"
"  --send-ovh C         cycles a processor spends on each send (default 0)\n"
"  --recv-ovh C         cycles a processor spends on each reception\n"
"\n"
"Scheduled broadcast (the DCF paper's Figs. 8 and 9; no load, no sweep):\n"
"  --bcast SCHEME       dcf or edn: one broadcast on an n x n torus (n a power\n"
"                       of two, 4..64) by the schedule of daemon/lib/dcf.c,\n"
"                       every unicast a worm on the p/l/h channels (dcf-plh);\n"
"                       receivers re-inject in the scheduled order, paying\n"
"                       --send-ovh (t_s) per send and --recv-ovh (t_r) per\n"
"                       reception; prints the latency, the timing model's\n"
"                       and the blocking the engine measured per step beside\n"
"                       the offline checker's contention.  Defaults under\n"
"                       --bcast: --inj 4 (all-port), --router-delay 0 (one\n"
"                       cycle per flit and hop, as the paper's t_c)\n"
"  --src N              the broadcast's source node (default 0)\n"
"  --bcast-relay RULE   port (default): a send enters when its port's\n"
"                       previous send has had L cycles (section 6.1); queue:\n"
"                       a node's sends enter its injection queue in order as\n"
"                       soon as ready, as the kernel's relays do\n"
"\n"
"Output:\n"
"  --json               JSON summary on stdout instead of the text summary\n"
"  --csv FILE           one CSV row per run (FILE '-' is stdout)\n"
"  --plot PREFIX        PREFIX.dat, PREFIX.gp, and with gnuplot PREFIX.png and\n"
"                       PREFIX.svg: latency versus offered load\n"
"  --links-json FILE    busy and blocked cycles of every link in the window,\n"
"                       one object per load, as wormctl stats --links -j\n"
"                       (FILE '-' is stdout; tools/heatmap/wc-heatmap plots it)\n"
"  -h, --help           this help\n"
"\n"
"Latency is counted in cycles from submission at the source (source queueing\n"
"included) to the tail consumed at the last destination of the message.\n"
"Exit status: 0 success, 1 bad value, failed run, deadlock, route error or\n"
"misdelivered copy, 2 usage error.  Documentation/wormsim.rst has the details.\n", f);
}

/* Raw option values, resolved once the topology is known. */
struct raw_args {
	u32 kind;
	const char *dims, *dim, *n;
	const char *param[OPT_WATCHDOG - OPT_FLIT_BYTES + 1];
	const char *load, *msg_bytes, *msg_flits, *mcast_frac, *dsts, *algo;
	const char *seed, *cycles, *warmup, *drain, *sweep, *jobs, *knee;
	const char *multicast, *rt_pair, *rt_seed, *rt_trials;
	const char *mcast0, *draws, *send_ovh, *recv_ovh;
	const char *bcast, *src, *bcast_relay;
	const char *fault_link[WORMCAST_TREES_MAX_FAULTS], *random_faults;
	const char *fault_info, *ft_strategy;
	bool ft_detour;
	u32 nfault_link;
};

static int resolve_topology(const struct raw_args *a, struct sim_config *cfg,
			    char *err, size_t len)
{
	u32 dims[WC_MAX_DIMS] = { 8, 8 }, ndims = 2;
	const char *why = NULL;
	const char *given = a->dims;
	u64 v;

	if (a->kind != WC_TOPO_HYPERCUBE && a->dim)
		return errf(err, len, 1, "--dim is for the hypercube; use --dims or --n");
	if (a->kind != WC_TOPO_STAR && a->n)
		return errf(err, len, 1, "--n is for the star graph; use --dims or --dim");
	if (a->kind == WC_TOPO_HYPERCUBE) {
		if (a->dim && a->dims)
			return errf(err, len, 1, "give --dim or --dims, not both");
		given = a->dim ? a->dim : a->dims;
		dims[0] = 6;
		ndims = 1;
	} else if (a->kind == WC_TOPO_STAR) {
		if (a->n && a->dims)
			return errf(err, len, 1, "give --n or --dims, not both");
		given = a->n ? a->n : a->dims;
		dims[0] = 5;
		ndims = 1;
	}
	if (given) {
		if (a->kind == WC_TOPO_MESH || a->kind == WC_TOPO_TORUS) {
			if (!parse_dims(given, dims, &ndims))
				return errf(err, len, 1,
					    "--dims: expected sizes like 8x8 or 4x4x4, got '%s'",
					    given);
		} else {
			if (!parse_u64(given, 0, 64, &v))
				return errf(err, len, 1,
					    "%s: expected one small number, got '%s'",
					    a->kind == WC_TOPO_STAR ? "--n" : "--dim", given);
			dims[0] = (u32)v;
		}
	}
	if (wc_topo_init(&cfg->topo, a->kind, ndims, dims, &why))
		return errf(err, len, 1, "%s %s: %s",
			    wc_topo_kind_name(a->kind), given ? given : "", why);
	return 0;
}

/* --mcast0 K and its companions (sim_mcast0(), Documentation/wormsim.rst). */
static int resolve_mcast0(const struct raw_args *a, struct sim_config *cfg,
			  char *err, size_t len)
{
	u64 v;

	cfg->draws = 100;
	if (a->bcast && a->mcast0)
		return errf(err, len, 1, "--bcast and --mcast0 are exclusive");
	if (!a->mcast0 && !a->bcast) {
		if (a->draws || a->send_ovh || a->recv_ovh)
			return errf(err, len, 1,
				    "--draws, --send-ovh and --recv-ovh go with --mcast0 or --bcast");
		return 0;
	}
	if (a->mcast0) {
		if (!parse_u64(a->mcast0, 1, cfg->topo.nnodes - 1, &v))
			return errf(err, len, 1, "--mcast0: expected 1..%u destinations, got '%s'",
				    cfg->topo.nnodes - 1, a->mcast0);
		cfg->mcast0 = (u32)v;
	} else if (a->draws) {
		return errf(err, len, 1, "--draws goes with --mcast0");
	}
	if (a->draws) {
		if (!parse_u64(a->draws, 1, 1000000, &v))
			return errf(err, len, 1, "--draws: expected 1..1000000, got '%s'",
				    a->draws);
		cfg->draws = (u32)v;
	}
	if (a->send_ovh) {
		if (!parse_u64(a->send_ovh, 0, 1000000, &v))
			return errf(err, len, 1, "--send-ovh: expected 0..1000000 cycles, got '%s'",
				    a->send_ovh);
		cfg->send_ovh = (u32)v;
	}
	if (a->recv_ovh) {
		if (!parse_u64(a->recv_ovh, 0, 1000000, &v))
			return errf(err, len, 1, "--recv-ovh: expected 0..1000000 cycles, got '%s'",
				    a->recv_ovh);
		cfg->recv_ovh = (u32)v;
	}
	return 0;
}

/*
 * --bcast SCHEME and --src N (sim_bcast()).  Runs after resolve_params():
 * under --bcast, --inj and --router-delay default to the paper's model.
 */
static int resolve_bcast(const struct raw_args *a, struct sim_config *cfg,
			 char *err, size_t len)
{
	const char *why = NULL;
	int scheme;
	u64 v;

	if (!a->bcast) {
		if (a->src || a->bcast_relay)
			return errf(err, len, 1, "--src and --bcast-relay go with --bcast");
		return 0;
	}
	scheme = dcf_scheme_parse(a->bcast);
	if (scheme != DCF_SCHEME_DCF && scheme != DCF_SCHEME_EDN)
		return errf(err, len, 1, "--bcast: expected dcf or edn, got '%s'",
			    a->bcast);
	if (a->multicast || a->algo)
		return errf(err, len, 1,
			    "--bcast routes every unicast with dcf-plh: --multicast and --algo do not apply");
	cfg->bcast = (u32)scheme + 1;
	if (a->src) {
		if (!parse_u64(a->src, 0, cfg->topo.nnodes - 1, &v))
			return errf(err, len, 1, "--src: expected a node 0..%u, got '%s'",
				    cfg->topo.nnodes - 1, a->src);
		cfg->bcast_src = (u32)v;
	}
	if (a->bcast_relay && strcmp(a->bcast_relay, "port") &&
	    strcmp(a->bcast_relay, "queue"))
		return errf(err, len, 1, "--bcast-relay: expected port or queue, got '%s'",
			    a->bcast_relay);
	cfg->bcast_queue = a->bcast_relay && !strcmp(a->bcast_relay, "queue");
	if (!a->param[OPT_INJ - OPT_FLIT_BYTES])
		cfg->params.inj_channels = DCF_NPORTS;
	if (!a->param[OPT_ROUTER_DELAY - OPT_FLIT_BYTES])
		cfg->params.router_delay = 0;
	if (wc_engine_params_check(&cfg->params, &cfg->topo, &why) ||
	    wc_algo_plh.check(&cfg->topo, &cfg->params, &why))
		return errf(err, len, 1, "--bcast: %s", why);
	return 0;
}

static int resolve_params(const struct raw_args *a, struct sim_config *cfg,
			  char *err, size_t len)
{
	static const char *const names[] = {
		"--flit-bytes", "--buf-flits", "--vcs", "--inj", "--cons",
		"--router-delay", "--link-delay", "--startup", "--replication",
		"--watchdog",
	};
	struct wc_engine_params *p = &cfg->params;
	u32 *fields[] = {
		&p->flit_bytes, &p->buf_flits, &p->vcs, &p->inj_channels,
		&p->cons_channels, &p->router_delay, &p->link_delay,
		&p->startup, &p->replication, &p->watchdog,
	};
	const char *why = NULL;
	u32 i;
	u64 v;

	wc_engine_params_default(p, &cfg->topo);
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		const char *s = a->param[i];

		if (!s)
			continue;
		if (fields[i] == &p->replication) {
			if (!strcmp(s, "lockstep"))
				p->replication = WC_REPL_LOCKSTEP;
			else if (!strcmp(s, "async"))
				p->replication = WC_REPL_ASYNC;
			else
				return errf(err, len, 1,
					    "--replication: expected lockstep or async, got '%s'", s);
			continue;
		}
		if (!parse_u64(s, 0, U32_MAX, &v))
			return errf(err, len, 1,
				    "%s: expected a non-negative integer, got '%s'",
				    names[i], s);
		*fields[i] = (u32)v;
	}
	if (wc_engine_params_check(p, &cfg->topo, &why))
		return errf(err, len, 1, "engine parameters: %s", why);
	return 0;
}

/* --rt-pair, --rt-seed, --rt-trials: only with --multicast rt. */
static int resolve_rt_opts(const struct raw_args *a, struct sim_config *cfg,
			   char *err, size_t len)
{
	struct wc_trees_opts *o = &cfg->trees_opts;
	u64 v;

	wc_trees_opts_default(o);
	if ((a->rt_pair || a->rt_seed || a->rt_trials) &&
	    cfg->mcast_scheme != WORMCAST_MCAST_RT)
		return errf(err, len, 1,
			    "--rt-pair, --rt-seed and --rt-trials go with --multicast rt");
	if (a->rt_pair && wc_rt_pair_parse(a->rt_pair, &o->rt_pair))
		return errf(err, len, 1,
			    "--rt-pair: expected average, best or path, got '%s'",
			    a->rt_pair);
	if (a->rt_seed) {
		if (!parse_u64(a->rt_seed, 0, U64_MAX, &v))
			return errf(err, len, 1,
				    "--rt-seed: expected a non-negative integer, got '%s'",
				    a->rt_seed);
		o->seed = v;
	}
	if (a->rt_trials) {
		if (!parse_u64(a->rt_trials, 1, WC_TREES_MAX_TRIALS, &v))
			return errf(err, len, 1, "--rt-trials: expected 1..%u, got '%s'",
				    WC_TREES_MAX_TRIALS, a->rt_trials);
		o->trials = (u32)v;
	}
	return 0;
}

/*
 * A tree scheme: the engine's tree algorithm on the table the daemon's
 * library computes (the bytes the kernel would get), checked once here by
 * building a tree set from it, as the kernel does before it commits.
 */
static int resolve_trees(struct sim_config *cfg, char *err, size_t len)
{
	const char *name = wc_mcast_scheme_name(cfg->mcast_scheme);
	struct wc_tree_set set;
	const char *why = NULL;
	int ret;

	cfg->algo = &wc_algo_tree;
	if (wc_tree_scheme_check(cfg->mcast_scheme, &cfg->topo, &cfg->params, &why))
		return errf(err, len, 1, "--multicast %s on %s: %s", name,
			    wc_topo_kind_name(cfg->topo.kind), why);
	if (cfg->algo->check && cfg->algo->check(&cfg->topo, &cfg->params, &why))
		return errf(err, len, 1, "--multicast %s on %s: %s", name,
			    wc_topo_kind_name(cfg->topo.kind), why);
	ret = wc_trees_table_info(cfg->mcast_scheme, &cfg->topo, &cfg->trees_opts,
				  &cfg->table, &cfg->table_len, &cfg->trees_info,
				  &why);
	if (ret)
		return errf(err, len, 1, "--multicast %s: %s", name,
			    ret == -ENOMEM ? "out of memory" : why);
	ret = wc_tree_set_build(&set, &cfg->topo, cfg->table, cfg->table_len, &why);
	if (ret)
		return errf(err, len, 1, "--multicast %s: table refused by the engine: %s",
			    name, ret == -ENOMEM ? "out of memory" : why);
	wc_tree_set_free(&set);
	return 0;
}

/*
 * A label scheme: the engine's label algorithm on the table of
 * daemon/lib/labels_table.c (the bytes wormcastd pushes), refused here if
 * the engine would refuse it.
 */
static int resolve_labels(struct sim_config *cfg, char *err, size_t len)
{
	const char *name = wc_mcast_scheme_name(cfg->mcast_scheme);
	struct wc_label_set set;
	const char *why = NULL;
	int ret;

	cfg->algo = &wc_algo_label;
	if (wc_label_scheme_check(cfg->mcast_scheme, &cfg->topo, &cfg->params,
				  &why))
		return errf(err, len, 1, "--multicast %s on %s: %s", name,
			    wc_topo_kind_name(cfg->topo.kind), why);
	ret = wc_labels_table_build(&cfg->topo, cfg->mcast_scheme, &cfg->table,
				    &cfg->table_len);
	if (ret)
		return errf(err, len, 1, "--multicast %s: %s", name,
			    strerror(-ret));
	ret = wc_label_set_build(&set, &cfg->topo, cfg->table, cfg->table_len,
				 &why);
	if (ret)
		return errf(err, len, 1, "--multicast %s: table refused by the engine: %s",
			    name, ret == -ENOMEM ? "out of memory" : why);
	wc_label_set_free(&set);
	return 0;
}

/* --multicast ftmesh: the algorithm; its tables come with the faults. */
static int resolve_ftmesh(const struct raw_args *a, struct sim_config *cfg,
			  char *err, size_t len)
{
	const char *why = NULL;
	u64 v = 2;

	if (a->algo)
		return errf(err, len, 1,
			    "--algo and --multicast ftmesh are exclusive: ftmesh routes every message");
	if (a->ft_strategy &&
	    !parse_u64(a->ft_strategy, WC_FTM_STRATEGY_MIN,
		       WC_FTM_STRATEGY_MAX, &v))
		return errf(err, len, 1,
			    "--ft-strategy: expected 1, 2 or 3, got '%s'",
			    a->ft_strategy);
	if (cfg->mcast0 || cfg->bcast)
		return errf(err, len, 1, "--multicast ftmesh goes with traffic runs");
	if (a->ft_detour && cfg->params.vcs < WC_FTM_DETOUR_VCS)
		return errf(err, len, 1,
			    "--ft-detour needs --vcs %u (the detours' second leg on VC classes of their own)",
			    WC_FTM_DETOUR_VCS);
	cfg->ftmesh = true;
	cfg->ft_detour = a->ft_detour;
	cfg->ft_strategy = (u32)v;
	cfg->algo = &wc_algo_ftmesh;
	if (wc_algo_ftmesh.check(&cfg->topo, &cfg->params, &why))
		return errf(err, len, 1, "--multicast ftmesh on %s: %s%s",
			    wc_topo_kind_name(cfg->topo.kind), why,
			    cfg->params.vcs < WC_FTM_MIN_VCS ? " (--vcs 4)" : "");
	return 0;
}

static int resolve_algo(const struct raw_args *a, struct sim_config *cfg,
			char *err, size_t len)
{
	const char *name = a->algo ? a->algo : "unicast-based";
	const char *why = NULL;
	int ret;
	u32 i;

	cfg->algo = NULL;
	cfg->mcast_scheme = WORMCAST_MCAST_UNICAST;
	if ((a->ft_strategy || a->ft_detour) &&
	    !(a->multicast && !strcmp(a->multicast, "ftmesh")))
		return errf(err, len, 1,
			    "--ft-strategy and --ft-detour go with --multicast ftmesh");
	if (a->multicast && !strcmp(a->multicast, "ftmesh"))
		return resolve_ftmesh(a, cfg, err, len);
	if (a->multicast && wc_mcast_scheme_parse(a->multicast, &cfg->mcast_scheme))
		return errf(err, len, 1,
			    "--multicast: expected unicast, spam, dstm-1, dstm-2, rt, hamiltonian, dual-path, multipath, star-tree, ocms, otms, multiphase, dcf or edn, got '%s'",
			    a->multicast);
	if (cfg->mcast_scheme == WORMCAST_MCAST_DCF ||
	    cfg->mcast_scheme == WORMCAST_MCAST_EDN)
		return errf(err, len, 1,
			    "--multicast %s: the kernel scheme's broadcast is --bcast %s (multicast under it goes as --multicast unicast)",
			    a->multicast, a->multicast);
	if (cfg->mcast_scheme == WORMCAST_MCAST_MULTIPHASE && !cfg->mcast0)
		return errf(err, len, 1,
			    "--multicast multiphase: receivers send on only under --mcast0 (load runs send every unicast from the source: --multicast unicast)");
	ret = resolve_rt_opts(a, cfg, err, len);
	if (ret)
		return ret;
	if (!wc_mcast_builtin(cfg->mcast_scheme)) {
		if (a->algo)
			return errf(err, len, 1,
				    "--algo and --multicast %s are exclusive: a tree or label scheme routes every message",
				    a->multicast);
		if (wc_label_scheme(cfg->mcast_scheme))
			return resolve_labels(cfg, err, len);
		return resolve_trees(cfg, err, len);
	}
	for (i = 0; i < ARRAY_SIZE(sim_algos); i++)
		if (!strcmp(name, sim_algos[i]->name))
			cfg->algo = sim_algos[i];
	if (!cfg->algo)
		return errf(err, len, 1, "--algo: unknown algorithm '%s' (see --help)",
			    name);
	if (cfg->algo->check && cfg->algo->check(&cfg->topo, &cfg->params, &why))
		return errf(err, len, 1, "%s on %s: %s", name,
			    wc_topo_kind_name(cfg->topo.kind), why);
	return 0;
}

/* Message length: --msg-bytes, or --msg-flits of flit_bytes each. */
static int resolve_message(const struct raw_args *a, struct sim_config *cfg,
			   char *err, size_t len)
{
	u64 v;

	if (a->msg_bytes && a->msg_flits)
		return errf(err, len, 1, "give --msg-bytes or --msg-flits, not both");
	cfg->msg_bytes = 512;
	if (a->msg_bytes) {
		if (!parse_u64(a->msg_bytes, 1, SIM_MAX_MSG_BYTES, &v))
			return errf(err, len, 1,
				    "--msg-bytes: expected 1..%u, got '%s'",
				    SIM_MAX_MSG_BYTES, a->msg_bytes);
		cfg->msg_bytes = (u32)v;
	}
	if (a->msg_flits) {
		if (!parse_u64(a->msg_flits, 1, SIM_MAX_MSG_BYTES, &v) ||
		    v * cfg->params.flit_bytes > SIM_MAX_MSG_BYTES)
			return errf(err, len, 1,
				    "--msg-flits: expected 1..%u flits of %u bytes, got '%s'",
				    SIM_MAX_MSG_BYTES / cfg->params.flit_bytes,
				    cfg->params.flit_bytes, a->msg_flits);
		cfg->msg_bytes = (u32)v * cfg->params.flit_bytes;
	}
	return 0;
}

/* The multicast mix: --mcast-frac and --dsts N | uniform:A:B. */
static int resolve_dsts(const struct raw_args *a, struct sim_config *cfg,
			char *err, size_t len)
{
	u32 nnodes = cfg->topo.nnodes;
	u64 v, w;

	cfg->mcast_frac = 0;
	if (a->mcast_frac &&
	    (!parse_double(a->mcast_frac, &cfg->mcast_frac) ||
	     cfg->mcast_frac < 0 || cfg->mcast_frac > 1))
		return errf(err, len, 1, "--mcast-frac: expected a fraction in [0, 1], got '%s'",
			    a->mcast_frac);

	cfg->dsts_min = cfg->dsts_max = nnodes - 1 < 8 ? nnodes - 1 : 8;
	if (a->dsts) {
		if (!strncmp(a->dsts, "uniform:", 8)) {
			char buf[64], *colon;

			if (strlen(a->dsts + 8) >= sizeof(buf))
				return errf(err, len, 1, "--dsts: '%s' is too long", a->dsts);
			strcpy(buf, a->dsts + 8);
			colon = strchr(buf, ':');
			if (!colon)
				return errf(err, len, 1,
					    "--dsts: expected uniform:A:B, got '%s'", a->dsts);
			*colon = '\0';
			if (!parse_u64(buf, 0, U32_MAX, &v) ||
			    !parse_u64(colon + 1, 0, U32_MAX, &w) || v > w)
				return errf(err, len, 1,
					    "--dsts: expected uniform:A:B with A <= B, got '%s'",
					    a->dsts);
		} else if (parse_u64(a->dsts, 0, U32_MAX, &v)) {
			w = v;
		} else {
			return errf(err, len, 1,
				    "--dsts: expected N or uniform:A:B, got '%s'", a->dsts);
		}
		if (v < 2 || w > nnodes - 1)
			return errf(err, len, 1,
				    "--dsts: a multicast has 2 to %u destinations here (nodes - 1), got '%s'",
				    nnodes - 1, a->dsts);
		cfg->dsts_min = (u32)v;
		cfg->dsts_max = (u32)w;
	}
	if (cfg->mcast_frac > 0 && cfg->dsts_min < 2)
		return errf(err, len, 1,
			    "--mcast-frac: multicast needs at least 3 nodes");
	return 0;
}

/* Seed, run length, workers and the knee. */
static int resolve_run(const struct raw_args *a, struct sim_config *cfg,
		       char *err, size_t len)
{
	u64 v;

	cfg->seed = 1;
	if (a->seed && !parse_u64(a->seed, 0, U64_MAX, &cfg->seed))
		return errf(err, len, 1, "--seed: expected a non-negative integer, got '%s'",
			    a->seed);
	cfg->cycles = 10000;
	if (a->cycles && !parse_u64(a->cycles, 1, SIM_MAX_CYCLES, &cfg->cycles))
		return errf(err, len, 1, "--cycles: expected 1..%llu, got '%s'",
			    SIM_MAX_CYCLES, a->cycles);
	cfg->warmup = 1000;
	if (a->warmup && !parse_u64(a->warmup, 0, SIM_MAX_CYCLES, &cfg->warmup))
		return errf(err, len, 1, "--warmup: expected 0..%llu, got '%s'",
			    SIM_MAX_CYCLES, a->warmup);
	cfg->drain = cfg->cycles;
	if (a->drain && !parse_u64(a->drain, 0, SIM_MAX_CYCLES, &cfg->drain))
		return errf(err, len, 1, "--drain: expected 0..%llu, got '%s'",
			    SIM_MAX_CYCLES, a->drain);
	cfg->jobs = 0;
	if (a->jobs && !parse_u64(a->jobs, 1, SIM_MAX_SWEEP_POINTS, &v))
		return errf(err, len, 1, "--jobs: expected 1..%d, got '%s'",
			    SIM_MAX_SWEEP_POINTS, a->jobs);
	if (a->jobs)
		cfg->jobs = (u32)v;
	cfg->knee_ratio = SIM_KNEE_RATIO;
	if (a->knee && (!parse_double(a->knee, &cfg->knee_ratio) ||
			!(cfg->knee_ratio > 1) || cfg->knee_ratio > 1000))
		return errf(err, len, 1, "--knee-ratio: expected a ratio in (1, 1000], got '%s'",
			    a->knee);
	return 0;
}

/* --load F, or --sweep A:B:S; at most one flit per injection channel. */
static int resolve_load(const struct raw_args *a, struct sim_config *cfg,
			char *err, size_t len)
{
	double max_load = cfg->params.inj_channels;
	double from, to, step, x;

	if (a->load && a->sweep)
		return errf(err, len, 1, "--load and --sweep are exclusive");
	cfg->load = 0.1;
	cfg->sweep_from = 0.1;
	cfg->sweep_step = 0;
	cfg->npoints = 1;
	if (a->load) {
		if (!parse_double(a->load, &cfg->load) || cfg->load <= 0 ||
		    cfg->load > max_load)
			return errf(err, len, 1,
				    "--load: expected flits/node/cycle in (0, %g], got '%s'",
				    max_load, a->load);
		cfg->sweep_from = cfg->load;
	}
	if (a->sweep) {
		char buf[96], *p1, *p2;

		if (strlen(a->sweep) >= sizeof(buf))
			return errf(err, len, 1, "--sweep: '%s' is too long", a->sweep);
		strcpy(buf, a->sweep);
		p1 = strchr(buf, ':');
		p2 = p1 ? strchr(p1 + 1, ':') : NULL;
		if (!p2)
			return errf(err, len, 1, "--sweep: expected A:B:S, got '%s'", a->sweep);
		*p1++ = '\0';
		*p2++ = '\0';
		if (!parse_double(buf, &from) || !parse_double(p1, &to) ||
		    !parse_double(p2, &step) || from <= 0 || to < from ||
		    to > max_load || step <= 0)
			return errf(err, len, 1,
				    "--sweep: expected A:B:S with 0 < A <= B <= %g and S > 0, got '%s'",
				    max_load, a->sweep);
		/* tolerance so that 0.05:0.9:0.05 includes 0.9 */
		x = floor((to - from) / step + 1e-9) + 1;
		if (x > SIM_MAX_SWEEP_POINTS)
			return errf(err, len, 1, "--sweep: more than %d points",
				    SIM_MAX_SWEEP_POINTS);
		cfg->sweep_from = from;
		cfg->sweep_step = step;
		cfg->npoints = (u32)x;
	}
	return 0;
}

static int resolve_traffic(const struct raw_args *a, struct sim_config *cfg,
			   char *err, size_t len)
{
	int ret = resolve_message(a, cfg, err, len);

	if (!ret)
		ret = resolve_dsts(a, cfg, err, len);
	if (!ret)
		ret = resolve_run(a, cfg, err, len);
	if (!ret)
		ret = resolve_load(a, cfg, err, len);
	return ret;
}

u32 sim_max_worm_flits(const struct sim_config *cfg)
{
	u32 d = cfg->mcast_frac > 0 ? cfg->dsts_max : 1;
	u32 hdr = wc_mcast_builtin(cfg->mcast_scheme) ? 1 :
		  wc_label_scheme(cfg->mcast_scheme) ? d : 2 * d - 1;

	return hdr + sim_msg_flits(cfg) + 1;
}

/*
 * Asynchronous replication of tree worms is input-buffer replication: a
 * router must be able to hold what a blocked branch has not taken yet,
 * i.e. a whole worm.  With smaller buffers a blocked branch holds its
 * siblings as lock step does, without lock step's coordination, and tree
 * worms can deadlock (the engine's watchdog reports it).  Refused.
 */
static int check_replication(struct sim_config *cfg, char *err, size_t len)
{
	u32 worm = sim_max_worm_flits(cfg);

	if (cfg->ftmesh) {
		/* one header flit per destination */
		worm = (cfg->mcast_frac > 0 ? cfg->dsts_max : 1) +
		       sim_msg_flits(cfg) + 1;
		if (cfg->params.replication != WC_REPL_ASYNC ||
		    cfg->params.buf_flits >= worm)
			return 0;
		return errf(err, len, 1,
			    "--replication async with --multicast ftmesh needs buffers that hold a whole worm (%u flits), --buf-flits is %u%s",
			    worm, cfg->params.buf_flits,
			    worm > WC_MAX_BUF_FLITS ? " (the engine's most is 64)" : "");
	}
	bool tree = cfg->mcast_scheme == WORMCAST_MCAST_STAR_TREE ||
		    !wc_label_scheme(cfg->mcast_scheme);

	/* Path worms never split: their buffers need not hold them. */
	if (wc_mcast_builtin(cfg->mcast_scheme) || !tree || cfg->mcast0 ||
	    cfg->params.replication != WC_REPL_ASYNC || !(cfg->mcast_frac > 0) ||
	    cfg->params.buf_flits >= worm)
		return 0;
	return errf(err, len, 1,
		    "--replication async with --multicast %s needs buffers that hold a whole worm (%u flits: up to %u header, %u data, 1 tail), --buf-flits is %u%s; use --replication lockstep (the paper's coordinated flow control)",
		    wc_mcast_scheme_name(cfg->mcast_scheme), worm,
		    worm - 1 - sim_msg_flits(cfg), sim_msg_flits(cfg),
		    cfg->params.buf_flits,
		    worm > WC_MAX_BUF_FLITS ? " (the engine's most is 64)" : "");
}

/* Add the links between adjacent @a and @b (two on a ring of 2) once. */
static int add_fault(struct sim_config *cfg, u32 a, u32 b)
{
	const struct wc_topo *t = &cfg->topo;
	u32 p, l, i;

	for (p = 0; p < t->nports; p++) {
		if (wc_topo_neighbor(t, a, p) != b)
			continue;
		l = wc_link_id(t, a, p);
		for (i = 0; i < cfg->nfaults; i++)
			if (cfg->fault_links[i] == l)
				return -EEXIST;
		if (cfg->nfaults == WORMCAST_TREES_MAX_FAULTS)
			return -E2BIG;
		cfg->fault_links[cfg->nfaults++] = l;
	}
	return 0;
}

/*
 * --multicast ftmesh: --random-faults N faulty nodes drawn with --seed (a
 * stream of their own), the fault information and the routers' tables of
 * the daemon's library.
 */
static int resolve_ft_faults(const struct raw_args *a, struct sim_config *cfg,
			     char *err, size_t len)
{
	const struct wc_topo *t = &cfg->topo;
	struct wc_faultinfo fi;
	const char *why = NULL;
	struct sim_rng rng;
	u8 *used;
	u64 x = 0;
	int ret;

	if (a->nfault_link || a->fault_info)
		return errf(err, len, 1,
			    "--multicast ftmesh takes faulty nodes: --random-faults N");
	if (a->random_faults &&
	    !parse_u64(a->random_faults, 1, t->nnodes / 2, &x))
		return errf(err, len, 1,
			    "--random-faults: expected 1..%u faulty nodes, got '%s'",
			    t->nnodes / 2, a->random_faults);
	cfg->fault_nodes = calloc(x + 1, sizeof(u32));
	used = calloc(t->nnodes, 1);
	if (!cfg->fault_nodes || !used) {
		free(used);
		return errf(err, len, 1, "faulty nodes: out of memory");
	}
	sim_rng_seed(&rng, cfg->seed ^ 0x6661756c74ull);
	while (cfg->nfault_nodes < x) {
		u32 n = sim_rng_below(&rng, t->nnodes);

		if (!used[n]) {
			used[n] = 1;
			cfg->fault_nodes[cfg->nfault_nodes++] = n;
		}
	}
	free(used);
	cfg->random_faults = cfg->nfault_nodes;
	ret = wc_fi_build_topo(&fi, t, cfg->fault_nodes, cfg->nfault_nodes,
			       NULL, 0, &why);
	if (ret)
		return errf(err, len, 1, "faulty nodes: %s",
			    ret == -ENOMEM ? "out of memory" : why);
	cfg->nft_blocks = fi.nblocks;
	ret = wc_ftm_tables_build(&fi, cfg->ft_strategy, cfg->seed, &cfg->ftm);
	cfg->ft_fi = fi;	/* Strategy 3 plans on it; freed with cfg */
	if (ret)
		return errf(err, len, 1, "ftmesh tables: %s", strerror(-ret));
	cfg->ftm.detour = cfg->ft_detour;
	return 0;
}

/*
 * --fault-link A:B and --random-faults N: the faulty links into the table
 * with daemon/lib's call (wormcastd's), checked by building a tree set from
 * it as the kernel does; each run's engine fails them (sim_engine_faults()).
 */
static int resolve_faults(const struct raw_args *a, struct sim_config *cfg,
			  char *err, size_t len)
{
	const struct wc_topo *t = &cfg->topo;
	struct wc_two_faults two;
	struct wc_tree_set set;
	const char *why = NULL;
	struct sim_rng rng;
	u32 i, k, n = 0, tries;
	u64 x, y;
	int ret;

	if (cfg->ftmesh)
		return resolve_ft_faults(a, cfg, err, len);
	if (a->fault_info && strcmp(a->fault_info, "global") &&
	    strcmp(a->fault_info, "local"))
		return errf(err, len, 1, "--fault-info: expected global or local, got '%s'",
			    a->fault_info);
	if (!a->nfault_link && !a->random_faults) {
		if (a->fault_info)
			return errf(err, len, 1,
				    "--fault-info goes with --fault-link or --random-faults");
		return 0;
	}
	if (cfg->mcast0 || cfg->bcast)
		return errf(err, len, 1,
			    "--fault-link and --random-faults go with traffic runs, not --mcast0 or --bcast");
	if (!wc_mcast_two_trees(cfg->mcast_scheme))
		return errf(err, len, 1,
			    "--fault-link and --random-faults need a two-tree scheme (--multicast dstm-1, dstm-2 or rt)");
	for (i = 0; i < a->nfault_link; i++) {
		const char *s = a->fault_link[i], *colon = strchr(s, ':');
		char na[24];

		if (!colon || (size_t)(colon - s) >= sizeof(na))
			return errf(err, len, 1,
				    "--fault-link: expected A:B (two node ids), got '%s'", s);
		memcpy(na, s, (size_t)(colon - s));
		na[colon - s] = '\0';
		if (!parse_u64(na, 0, t->nnodes - 1, &x) ||
		    !parse_u64(colon + 1, 0, t->nnodes - 1, &y))
			return errf(err, len, 1,
				    "--fault-link: expected A:B with nodes 0..%u, got '%s'",
				    t->nnodes - 1, s);
		if (wc_topo_port_to(t, (u32)x, (u32)y) == WC_NO_PORT)
			return errf(err, len, 1,
				    "--fault-link %s: nodes %llu and %llu are not adjacent: no such link",
				    s, (unsigned long long)x, (unsigned long long)y);
		ret = add_fault(cfg, (u32)x, (u32)y);
		if (ret)
			return errf(err, len, 1, "--fault-link %s: %s", s,
				    ret == -EEXIST ? "the link is listed twice" :
				    "too many faulty links");
	}
	if (a->random_faults) {
		if (!parse_u64(a->random_faults, 1, wc_topo_nlinks(t) - cfg->nfaults, &x))
			return errf(err, len, 1,
				    "--random-faults: expected 1..%u (links not already faulty), got '%s'",
				    wc_topo_nlinks(t) - cfg->nfaults, a->random_faults);
		if (x + cfg->nfaults > WORMCAST_TREES_MAX_FAULTS)
			return errf(err, len, 1,
				    "--random-faults: at most %u faulty links in all",
				    WORMCAST_TREES_MAX_FAULTS);
		/* a stream of its own: the traffic of --seed stays the same */
		sim_rng_seed(&rng, cfg->seed ^ 0x6661756c74ull);
		for (tries = 0; n < x && tries < 1000000; tries++) {
			u32 l = sim_rng_below(&rng, wc_link_space(t)), la, pa, lb, pb;

			wc_link_ends(t, l, &la, &pa, &lb, &pb);
			if (lb == WC_NO_NODE || wc_link_id(t, la, pa) != l ||
			    wc_link_id(t, la, wc_topo_port_to(t, la, lb)) != l)
				continue;	/* not a link, or not its first */
			if (!add_fault(cfg, la, lb))
				n++;
		}
		if (n < x)
			return errf(err, len, 1, "--random-faults: could not draw %llu links",
				    (unsigned long long)x);
		cfg->random_faults = n;
	}
	cfg->fault_local = a->fault_info && !strcmp(a->fault_info, "local");
	if (cfg->fault_local && cfg->nfaults != 1)
		return errf(err, len, 1,
			    "--fault-info local: section 7's single faulty link, got %u",
			    cfg->nfaults);
	/*
	 * local: the sources' table stays fault-free, a copy gets the link;
	 * global: the table wormcastd pushes (trees rebuilt when neither
	 * joins the live nodes).
	 */
	ret = wc_trees_table_two_faults(t, cfg->table, cfg->table_len,
					cfg->fault_links, cfg->nfaults, NULL, 0,
					!cfg->fault_local, &cfg->table_global,
					&cfg->table_global_len, &two, &why);
	if (ret)
		return errf(err, len, 1, "faulty links: %s",
			    ret == -ENOMEM ? "out of memory" : why);
	cfg->trees_rebuilt = two.rebuilt;
	if (!cfg->fault_local) {
		/* global: the one table carries them */
		free(cfg->table);
		cfg->table = cfg->table_global;
		cfg->table_len = cfg->table_global_len;
		cfg->table_global = NULL;
		cfg->table_global_len = 0;
	} else {
		cfg->algo = &wc_algo_tree_local;
	}
	ret = wc_tree_set_build(&set, t, cfg->fault_local ? cfg->table_global :
				cfg->table, cfg->fault_local ?
				cfg->table_global_len : cfg->table_len, &why);
	if (ret)
		return errf(err, len, 1, "faulty links: table refused by the engine: %s",
			    ret == -ENOMEM ? "out of memory" : why);
	for (i = 0; i < cfg->nfaults; i++) {
		u32 la, pa, lb, pb;

		wc_link_ends(t, cfg->fault_links[i], &la, &pa, &lb, &pb);
		cfg->fault_tree[i] = -1;
		cfg->fault_cut[i] = 0;
		for (k = 0; k < set.ntrees; k++) {
			/* the child end's subtree: its post-order interval */
			const struct wc_tree_entry *c =
				set.entry[k][la].parent_port == pa ? &set.entry[k][la] :
				set.entry[k][lb].parent_port == pb ? &set.entry[k][lb] :
				NULL;

			if (!c)
				continue;
			cfg->fault_tree[i] = (s8)k;
			cfg->fault_cut[i] = c->pn - c->lo + 1;
		}
	}
	wc_tree_set_free(&set);
	return 0;
}

int sim_engine_faults(const struct sim_config *cfg, struct wc_engine *e,
		      const char **why)
{
	u32 i, a, pa, b, pb;
	int err;

	for (i = 0; i < cfg->nfault_nodes; i++) {
		err = wc_engine_fault_node(e, cfg->fault_nodes[i], true, why);
		if (err)
			return err;
	}
	for (i = 0; i < cfg->nfaults; i++) {
		wc_link_ends(&cfg->topo, cfg->fault_links[i], &a, &pa, &b, &pb);
		/* two parallel links (a ring of 2) fail together */
		if (wc_engine_link_failed(e, a, b))
			continue;
		err = wc_engine_fault_link(e, a, b, true, why);
		if (err)
			return err;
	}
	return 0;
}

void sim_config_free(struct sim_config *cfg)
{
	free(cfg->table);
	cfg->table = NULL;
	cfg->table_len = 0;
	free(cfg->table_global);
	cfg->table_global = NULL;
	cfg->table_global_len = 0;
	free(cfg->fault_nodes);
	cfg->fault_nodes = NULL;
	cfg->nfault_nodes = 0;
	wc_ftm_tables_free(&cfg->ftm);
	wc_fi_free(&cfg->ft_fi);
}

const char *sim_scheme_label(const struct sim_config *cfg, char *buf,
			     size_t len)
{
	if (cfg->mcast_scheme == WORMCAST_MCAST_UNICAST)
		snprintf(buf, len, "%s", cfg->algo->name);
	else if (cfg->mcast_scheme == WORMCAST_MCAST_RT)
		snprintf(buf, len, "rt-%s", wc_rt_pair_name(cfg->trees_opts.rt_pair));
	else
		snprintf(buf, len, "%s", wc_mcast_scheme_name(cfg->mcast_scheme));
	return buf;
}

int sim_parse_args(int argc, char **argv, struct sim_config *cfg,
		   char *err, size_t errlen)
{
	struct raw_args a;
	int c, ret;

	memset(&a, 0, sizeof(a));
	memset(cfg, 0, sizeof(*cfg));
	a.kind = WC_TOPO_MESH;
	err[0] = '\0';
	opterr = 0;
	optind = 0;	/* GNU: full re-initialisation, parse may run again */
	while ((c = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			cfg->help = true;
			break;
		case OPT_TOPOLOGY:
			if (!strcmp(optarg, "mesh"))
				a.kind = WC_TOPO_MESH;
			else if (!strcmp(optarg, "torus"))
				a.kind = WC_TOPO_TORUS;
			else if (!strcmp(optarg, "hypercube"))
				a.kind = WC_TOPO_HYPERCUBE;
			else if (!strcmp(optarg, "star"))
				a.kind = WC_TOPO_STAR;
			else
				return errf(err, errlen, 1,
					    "--topology: expected mesh, torus, hypercube or star, got '%s'",
					    optarg);
			break;
		case OPT_DIMS:
			a.dims = optarg;
			break;
		case OPT_DIM:
			a.dim = optarg;
			break;
		case OPT_N:
			a.n = optarg;
			break;
		case OPT_FLIT_BYTES ... OPT_WATCHDOG:
			a.param[c - OPT_FLIT_BYTES] = optarg;
			break;
		case OPT_LOAD:
			a.load = optarg;
			break;
		case OPT_MSG_BYTES:
			a.msg_bytes = optarg;
			break;
		case OPT_MSG_FLITS:
			a.msg_flits = optarg;
			break;
		case OPT_MCAST_FRAC:
			a.mcast_frac = optarg;
			break;
		case OPT_DSTS:
			a.dsts = optarg;
			break;
		case OPT_ALGO:
			a.algo = optarg;
			break;
		case OPT_SEED:
			a.seed = optarg;
			break;
		case OPT_CYCLES:
			a.cycles = optarg;
			break;
		case OPT_WARMUP:
			a.warmup = optarg;
			break;
		case OPT_DRAIN:
			a.drain = optarg;
			break;
		case OPT_CSV:
			if (!*optarg)
				return errf(err, errlen, 1, "--csv: empty file name");
			cfg->csv_path = optarg;
			break;
		case OPT_SWEEP:
			a.sweep = optarg;
			break;
		case OPT_PLOT:
			if (!*optarg || strpbrk(optarg, "'\"\\\n"))
				return errf(err, errlen, 1,
					    "--plot: the prefix must be non-empty, without quotes, backslashes or newlines");
			cfg->plot_prefix = optarg;
			break;
		case OPT_LINKS_JSON:
			if (!*optarg)
				return errf(err, errlen, 1, "--links-json: empty file name");
			cfg->links_json = optarg;
			break;
		case OPT_JSON:
			cfg->json = true;
			break;
		case OPT_JOBS:
			a.jobs = optarg;
			break;
		case OPT_KNEE:
			a.knee = optarg;
			break;
		case OPT_MULTICAST:
			a.multicast = optarg;
			break;
		case OPT_RT_PAIR:
			a.rt_pair = optarg;
			break;
		case OPT_RT_SEED:
			a.rt_seed = optarg;
			break;
		case OPT_RT_TRIALS:
			a.rt_trials = optarg;
			break;
		case OPT_MCAST0:
			a.mcast0 = optarg;
			break;
		case OPT_DRAWS:
			a.draws = optarg;
			break;
		case OPT_SEND_OVH:
			a.send_ovh = optarg;
			break;
		case OPT_RECV_OVH:
			a.recv_ovh = optarg;
			break;
		case OPT_BCAST:
			a.bcast = optarg;
			break;
		case OPT_SRC:
			a.src = optarg;
			break;
		case OPT_BCAST_RELAY:
			a.bcast_relay = optarg;
			break;
		case OPT_FAULT_LINK:
			if (a.nfault_link == WORMCAST_TREES_MAX_FAULTS)
				return errf(err, errlen, 1,
					    "--fault-link: at most %u faulty links",
					    WORMCAST_TREES_MAX_FAULTS);
			a.fault_link[a.nfault_link++] = optarg;
			break;
		case OPT_RANDOM_FAULTS:
			a.random_faults = optarg;
			break;
		case OPT_FAULT_INFO:
			a.fault_info = optarg;
			break;
		case OPT_FT_STRATEGY:
			a.ft_strategy = optarg;
			break;
		case OPT_FT_DETOUR:
			a.ft_detour = true;
			break;
		case ':':
			return errf(err, errlen, 2, "option '%s' needs an argument",
				    argv[optind - 1]);
		default:
			return errf(err, errlen, 2, "unknown option '%s' (see --help)",
				    argv[optind - 1]);
		}
	}
	if (optind < argc)
		return errf(err, errlen, 2, "unexpected argument '%s' (see --help)",
			    argv[optind]);
	if (cfg->help)
		return 0;
	ret = resolve_topology(&a, cfg, err, errlen);
	if (!ret)
		ret = resolve_mcast0(&a, cfg, err, errlen);
	if (!ret)
		ret = resolve_params(&a, cfg, err, errlen);
	if (!ret)
		ret = resolve_bcast(&a, cfg, err, errlen);
	if (!ret)
		ret = resolve_algo(&a, cfg, err, errlen);
	if (!ret)
		ret = resolve_traffic(&a, cfg, err, errlen);
	if (!ret)
		ret = check_replication(cfg, err, errlen);
	if (!ret)
		ret = resolve_faults(&a, cfg, err, errlen);
	if (ret)
		sim_config_free(cfg);
	return ret;
}

double sim_point_load(const struct sim_config *cfg, u32 i)
{
	return cfg->sweep_from + i * cfg->sweep_step;
}

u32 sim_msg_flits(const struct sim_config *cfg)
{
	return DIV_ROUND_UP(cfg->msg_bytes, cfg->params.flit_bytes);
}

/* ------------------------------------------------------ ocms, otms plans */

struct sim_planner {
	struct wc_labeling lb;		/* the canonical one, as wormcastd's */
	enum wc_pathplan_algo algo;
	const struct wc_topo *t;
	const struct wc_label_set *ls;	/* the run's, scheme ocms or otms */
	/* ftmesh Strategy 3: the faults and the run's tables, else NULL */
	const struct wc_faultinfo *fi;
	const struct wc_ftm_tables *ftm;
	u32 *dests;			/* scratch: a message's destinations */
	u32 steps;			/* the last plan's channels */
};

int sim_plan_algo(u32 scheme, enum wc_pathplan_algo *algo)
{
	const char *name = wc_mcast_scheme_name(scheme);

	if (!wc_label_scheme(scheme) || !name)
		return -EINVAL;
	return wc_pathplan_parse(name, algo);
}

struct sim_planner *sim_planner_new(const struct sim_config *cfg,
				    const struct wc_label_set *ls, int *err)
{
	struct sim_planner *pl;

	*err = 0;
	if (cfg->ftmesh ? cfg->ft_strategy != WC_FT_STRATEGY3 :
	    !ls || !wc_plan_scheme(cfg->mcast_scheme))
		return NULL;
	pl = calloc(1, sizeof(*pl));
	if (pl && cfg->ftmesh) {
		pl->fi = &cfg->ft_fi;
		pl->ftm = &cfg->ftm;
	} else if (!pl || sim_plan_algo(cfg->mcast_scheme, &pl->algo) ||
		   wc_labeling_init(&pl->lb, &cfg->topo)) {
		*err = pl ? -EINVAL : -ENOMEM;
		free(pl);
		return NULL;
	}
	pl->t = &cfg->topo;
	pl->ls = ls;
	pl->dests = calloc(cfg->topo.nnodes, sizeof(u32));
	if (!pl->dests) {
		sim_planner_free(pl);
		*err = -ENOMEM;
		return NULL;
	}
	return pl;
}

void sim_planner_free(struct sim_planner *pl)
{
	if (!pl)
		return;
	if (!pl->fi)
		wc_labeling_free(&pl->lb);
	free(pl->dests);
	free(pl);
}

u32 sim_plan_steps(const struct sim_planner *pl)
{
	return pl->steps;
}

static const u8 sim_grp[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };

/* ocms, otms: wormcastd's one-plan table of (m->src, sim_grp). */
static int plan_mstar(struct sim_planner *pl, const struct wc_msg *m, u32 k,
		      void **bytes, size_t *len)
{
	struct wc_plans_enc enc;
	struct wc_mstar ms;
	int err;

	err = wc_pathplan(&pl->lb, pl->algo, m->src, pl->dests, k, &ms);
	if (err)
		return err;
	pl->steps = ms.channels;
	err = wc_plans_enc_init(&enc, pl->t->nnodes);
	if (!err)
		err = wc_plans_enc_add(&enc, sim_grp, &ms);
	wc_mstar_free(&ms);
	if (!err)
		wc_plans_enc_finish(&enc, bytes, len);
	wc_plans_enc_free(&enc);
	return err;
}

/* ftmesh Strategy 3: the same, wormcastd's table for the one pair. */
static int plan_ftm(struct sim_planner *pl, const struct wc_msg *m, u32 k,
		    void **bytes, size_t *len)
{
	struct wc_group_in g = {
		.nmembers = k, .members = pl->dests,
		.nsources = 1, .sources = &m->src,
	};
	struct wc_plans_stats st;
	int err;

	memcpy(g.addr, sim_grp, sizeof(g.addr));
	err = wc_ftm_plans_table_build(pl->fi, &g, 1, false, bytes, len, &st);
	if (!err && !st.plans) {
		free(*bytes);
		return -E2BIG;	/* skipped: too many choices, none reached */
	}
	pl->steps = (u32)st.channels;
	return err;
}

int sim_plan_msg(struct sim_planner *pl, struct wc_msg *m)
{
	struct wc_plan_set ps;
	u32 v, k = 0;
	void *bytes;
	size_t len;
	int err;

	for (v = 0; v < pl->t->nnodes; v++)
		if (m->dstmap[v / 32] & (1u << (v % 32)))
			pl->dests[k++] = v;
	if (pl->fi)
		err = plan_ftm(pl, m, k, &bytes, &len);
	else
		err = plan_mstar(pl, m, k, &bytes, &len);
	if (err)
		return err;
	if (pl->fi)
		err = wc_plan_set_build_ftm(&ps, pl->t, pl->ftm, bytes, len,
					    NULL);
	else
		err = wc_plan_set_build(&ps, pl->t, pl->ls, bytes, len, NULL);
	free(bytes);
	if (err)
		return err;
	/* the kernel's source, kmod/fabric.c wc_use_plan() */
	if (!wc_plan_use(&ps, wc_plan_find(&ps, m->src, sim_grp), pl->ftm, m))
		err = -EINVAL;
	wc_plan_set_free(&ps);
	return err;
}

/* ------------------------------------------------------------- one run */

/* Our record of a message in the engine (the wc_msg cookie). */
struct sim_msg {
	struct sim_msg *prev, *next;	/* list of live messages */
	struct wc_msg *m;
	u64 t_submit;			/* engine clock at submission */
	u64 t_last;			/* our clock at the latest delivery */
	u64 lat_max;			/* latency of the latest destination */
	u32 ndsts, delivered;		/* destinations reached (once each) */
	u32 uni_steps;			/* ftmesh: multiple unicast's traffic */
	/* ftmesh Strategy 3: the planner's traffic steps for a message sent
	 * with its plan and no detour worm, else U32_MAX (not compared) */
	u32 plan_steps;
	/* --fault-info local: the re-injected copy's original, and the
	 * originals waiting for re-injection (at @reinject_at, on tree
	 * @reinject_tree: wc_tree_local_reinject()) */
	struct sim_msg *parent, *pend_next;
	u32 reinject_at, reinject_tree;
	u32 *got;			/* bitmap of them, after hdr[] */
	u8 cls;
	bool tagged;			/* generated in the measured window */
	u32 hdr[];			/* header words (tree schemes), hdr_words */
};

struct sim_state {
	const struct sim_config *cfg;
	struct sim_result *res;
	struct wc_engine *e;
	struct sim_rng rng;
	struct sim_msg live;		/* list head */
	struct wc_tree_set *trees;	/* this run's own, or NULL (unicast) */
	/* --fault-info local: the messages to re-inject */
	struct sim_msg *pending;
	struct wc_label_set *labels;	/* the same for a label scheme */
	struct sim_planner *planner;	/* ocms, otms, ftmesh Strategy 3:
					 * plans every multicast */
	const void *tables;		/* what wc_engine_run() gets */
	u32 hdr_words;			/* room at sim_msg.hdr, per message */
	u32 *perm, *pos;		/* node permutation and its inverse */
	struct sim_hist *lat;		/* SIM_NCLASSES histograms */
	/* Simulator and engine clocks when the current wc_engine_run() began:
	 * the engine skips idle time, our clock does not.  The callbacks may
	 * not call into the engine, so they date events from the message's
	 * submission time and the latency the engine reports.
	 */
	u64 chunk_sim, chunk_eng;
	bool deadlock_seen;		/* dump the waits after this run() */
	u64 win_start, win_end;
	u64 outstanding;		/* tagged messages not finished */
	u64 done_in_win, deliveries_in_win;
	size_t msg_bytes;		/* one struct sim_msg and its wc_msg */
	u64 mem, mem_peak;		/* bytes we hold, engine included */
	bool closing;
	int err;
};

/*
 * --fault-info local: the longest wc_engine_run() chunk of a loaded run, so
 * that a message consumed at a fault is re-injected at most this many
 * cycles late (the callbacks cannot submit).
 */
#define SIM_REINJECT_CHUNK	4

/* Allocations of a run go through these, so that its peak is known. */
static void *st_zalloc(struct sim_state *st, size_t n)
{
	void *p = calloc(1, n);

	if (p) {
		st->mem += n;
		if (st->mem > st->mem_peak)
			st->mem_peak = st->mem;
	}
	return p;
}

static void st_free(struct sim_state *st, void *p, size_t n)
{
	if (p) {
		free(p);
		st->mem -= n;
	}
}

/*
 * A tree set of our own built from @len bytes of @table on the run's
 * topology (it holds the encoder's scratch), its memory counted; NULL
 * with *@err set if it cannot be.
 */
static struct wc_tree_set *st_tree_set(struct sim_state *st,
				       const void *table, size_t len, int *err)
{
	struct wc_tree_set *set = st_zalloc(st, sizeof(*set));

	if (!set) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = wc_tree_set_build(set, &st->cfg->topo, table, len, NULL);
	if (*err) {
		st_free(st, set, sizeof(*set));
		return NULL;
	}
	st->mem += set->mem;
	return set;
}

/* Our clock at engine cycle @eng of the current wc_engine_run() call. */
static u64 sim_clock(const struct sim_state *st, u64 eng)
{
	return st->chunk_sim + (eng - st->chunk_eng);
}

static bool in_window(const struct sim_state *st, u64 t)
{
	return t >= st->win_start && t < st->win_end;
}

static void msg_free(struct sim_state *st, struct sim_msg *sm)
{
	free(sm->m);
	st_free(st, sm, st->msg_bytes);
}

/* @sm reached destination @node (of @dstmap) @latency cycles after submission. */
static void msg_got(struct sim_state *st, struct sim_msg *sm,
		    const u32 *dstmap, u32 node, u64 latency)
{
	if (!(dstmap[node / 32] & BIT(node % 32)) ||
	    (sm->got[node / 32] & BIT(node % 32))) {
		st->res->misdelivered++;
		return;
	}
	sm->got[node / 32] |= BIT(node % 32);
	sm->delivered++;
	if (latency > sm->lat_max)
		sm->lat_max = latency;
	if (st->closing)
		return;
	sm->t_last = sim_clock(st, sm->t_submit + latency);
	if (in_window(st, sm->t_last))
		st->deliveries_in_win++;
}

static void cb_deliver(void *priv, struct wc_msg *m, u32 node, u64 latency)
{
	struct sim_state *st = priv;
	struct sim_msg *sm = m->cookie;

	if (sm->parent) {	/* a re-injected copy delivers for its original */
		latency += sm->t_submit - sm->parent->t_submit;
		sm = sm->parent;
	}
	msg_got(st, sm, m->dstmap, node, latency);
}

static void msg_unlink_free(struct sim_state *st, struct sim_msg *sm)
{
	sm->prev->next = sm->next;
	sm->next->prev = sm->prev;
	msg_free(st, sm);
}

static void msg_finish(struct sim_state *st, struct sim_msg *sm)
{
	bool complete = sm->delivered == sm->ndsts;

	if (!st->closing) {
		/* it finished with its last delivery */
		if (complete && in_window(st, sm->t_last))
			st->done_in_win++;
		if (sm->tagged) {
			st->outstanding--;
			if (!complete)
				st->res->lost++;	/* route error */
			else if (sm->ndsts)	/* ftmesh: none reachable */
				sim_hist_add(&st->lat[sm->cls], sm->lat_max);
			if (complete && sm->ndsts && st->cfg->ftmesh &&
			    sm->cls == SIM_MULTICAST) {
				st->res->ft_mcasts++;
				st->res->ft_links += sm->m->nlinks;
				st->res->ft_unicast_steps += sm->uni_steps;
			}
			if (complete && sm->plan_steps != U32_MAX) {
				st->res->ft_planned++;
				st->res->ft_plan_links += sm->m->nlinks;
				st->res->ft_plan_steps += sm->plan_steps;
				st->res->ft_plan_mismatch +=
					sm->m->nlinks != sm->plan_steps;
			}
		}
	}
	msg_unlink_free(st, sm);
}

static void cb_msg_done(void *priv, struct wc_msg *m)
{
	struct sim_state *st = priv;
	struct sim_msg *sm = m->cookie, *orig = sm->parent;
	const struct sim_config *cfg = st->cfg;
	u32 missed[DIV_ROUND_UP(WC_MAX_NODES, 32)];

	if (orig) {		/* the re-injected copy: its original is done */
		msg_unlink_free(st, sm);
		msg_finish(st, orig);
		return;
	}
	/*
	 * --fault-info local: a branch was absorbed at the faulty link.  The
	 * router before it (the engine recorded where) has consumed the
	 * message; after this run() chunk it re-injects it to the
	 * destinations missed, on the other tree (sim_reinject()), as the
	 * kernel does (kmod/relay.c): wc_tree_local_reinject() decides.
	 */
	memset(missed, 0, DIV_ROUND_UP(cfg->topo.nnodes, 32) * sizeof(u32));
	if (cfg->fault_local && !st->closing && m->faulted &&
	    sm->delivered < sm->ndsts &&
	    wc_tree_local_reinject(st->trees, &cfg->topo, m, &sm->reinject_at,
				   &sm->reinject_tree, missed)) {
		wc_engine_fault_reinjected(st->e, m);
		sm->pend_next = st->pending;
		st->pending = sm;
		st->res->reinjected++;
		return;
	}
	msg_finish(st, sm);
}

static void cb_route_error(void *priv, struct wc_msg *m, u32 node, int err)
{
	struct sim_state *st = priv;

	st->res->route_errors++;
}

static void cb_deadlock(void *priv, u64 cycle)
{
	struct sim_state *st = priv;

	if (!st->res->deadlocks++)
		st->deadlock_seen = true;
}

static const struct wc_engine_ops sim_ops = {
	.deliver = cb_deliver,
	.msg_done = cb_msg_done,
	.route_error = cb_route_error,
	.deadlock = cb_deadlock,
};

static void swap_nodes(struct sim_state *st, u32 i, u32 j)
{
	u32 a = st->perm[i], b = st->perm[j];

	st->perm[i] = b;
	st->perm[j] = a;
	st->pos[b] = i;
	st->pos[a] = j;
}

/*
 * One message arrives at cycle @now.  The Poisson processes of the nodes
 * are merged into one of rate nodes * lambda whose arrivals pick their
 * source uniformly: the same distribution as one process per node.
 */
/*
 * Submit a message from @src to the @nd destinations @dsts (distinct, not
 * @src) at engine time now; @tagged: measured.
 */
static int sim_submit(struct sim_state *st, u32 src, const u32 *dsts, u32 nd,
		      enum sim_class cls, bool tagged, struct sim_msg *parent)
{
	const struct sim_config *cfg = st->cfg;
	struct sim_msg *sm;
	u32 i, reach = 0;

	/* the wc_msg is counted with its sim_msg in st->msg_bytes */
	sm = st_zalloc(st, st->msg_bytes);
	if (!sm)
		return -ENOMEM;
	sm->m = calloc(1, wc_msg_size(st->e));
	if (!sm->m) {
		st_free(st, sm, st->msg_bytes);
		return -ENOMEM;
	}
	wc_msg_init(st->e, sm->m, src, cfg->msg_bytes, sm);
	sm->got = sm->hdr + st->hdr_words;
	if (st->hdr_words) {
		/* sized for dsts_max at state_init(); this message needs ... */
		sm->m->hdr = sm->hdr;
	}
	sm->cls = cls;
	sm->tagged = tagged;
	sm->parent = parent;
	sm->ndsts = nd;
	sm->plan_steps = U32_MAX;
	for (i = 0; i < nd; i++)
		wc_msg_add_dst(st->e, sm->m, dsts[i]);
	if (cfg->ftmesh) {
		/* the ones the source leaves out are the engine's fault_drops */
		sm->ndsts = 0;
		for (i = 0; i < nd; i++) {
			u32 w;

			if (wc_ftm_reachable(&cfg->ftm, src, dsts[i])) {
				sm->ndsts++;
				reach++;
				sm->uni_steps += wc_topo_distance(&cfg->topo,
								  src, dsts[i]);
				continue;
			}
			w = wc_ftm_waypoint(&cfg->ftm, src, dsts[i]);
			if (w == U32_MAX)
				continue;
			/* a detour worm (--ft-detour): the same as unicast */
			sm->ndsts++;
			sm->uni_steps += wc_topo_distance(&cfg->topo, src, w) +
					 wc_topo_distance(&cfg->topo, w, dsts[i]);
			if (tagged)
				st->res->ft_detoured++;
		}
		if (tagged)
			st->res->ft_left_out += nd - sm->ndsts;
		/* none reachable: finished (accepted) at its submission */
		sm->t_last = sim_clock(st, wc_engine_now(st->e));
	}
	if (st->hdr_words)
		sm->m->hdr_max = wc_algo_hdr_words(cfg->algo, nd);
	if (parent && st->hdr_words) {
		/* a re-injection: on the tree wc_tree_local_reinject() named */
		sm->m->hdr_preset = true;
		sm->hdr[0] = parent->reinject_tree;
	}
	/* ftmesh: nothing to plan when the source reaches no destination */
	if (cls == SIM_MULTICAST && st->planner && (!cfg->ftmesh || reach)) {
		if (sim_plan_msg(st->planner, sm->m))
			st->res->plan_fallback++;  /* dual-path or Strategy 2 */
		else if (cfg->ftmesh && reach == sm->ndsts)
			sm->plan_steps = sim_plan_steps(st->planner);
	}
	if (sm->tagged) {
		st->res->tagged++;
		st->outstanding++;
	}
	sm->next = &st->live;
	sm->prev = st->live.prev;
	st->live.prev->next = sm;
	st->live.prev = sm;
	sm->t_submit = wc_engine_now(st->e);
	wc_engine_submit(st->e, sm->m);
	return 0;
}

static int sim_generate(struct sim_state *st, u64 now)
{
	const struct sim_config *cfg = st->cfg;
	u32 nnodes = cfg->topo.nnodes;
	u32 src = sim_rng_below(&st->rng, nnodes), k;
	bool mcast;

	/* ftmesh: a node inside a faulty block sends nothing */
	for (k = 0; cfg->ftmesh && cfg->ftm.in_block[src] && k < 1000; k++)
		src = sim_rng_below(&st->rng, nnodes);
	mcast = cfg->mcast_frac > 0 &&
		     sim_rng_uniform(&st->rng) < cfg->mcast_frac;
	u32 i, nd, dst;

	if (mcast) {
		nd = cfg->dsts_min +
		     sim_rng_below(&st->rng, cfg->dsts_max - cfg->dsts_min + 1);
		/* partial Fisher-Yates over every node but the source */
		swap_nodes(st, st->pos[src], nnodes - 1);
		for (i = 0; i < nd; i++)
			swap_nodes(st, i, i + sim_rng_below(&st->rng, nnodes - 1 - i));
		return sim_submit(st, src, st->perm, nd, SIM_MULTICAST,
				  in_window(st, now), NULL);
	}
	dst = sim_rng_below(&st->rng, nnodes - 1);
	if (dst >= src)
		dst++;
	return sim_submit(st, src, &dst, 1, SIM_UNICAST, in_window(st, now), NULL);
}

/*
 * --fault-info local: re-inject the messages cb_msg_done() left pending,
 * each from the router before the fault to the destinations it missed.
 * Called between wc_engine_run() chunks (callbacks may not submit).
 */
static int sim_reinject(struct sim_state *st)
{
	const struct wc_topo *t = &st->cfg->topo;
	u32 dsts[WC_MAX_NODES], nd, v;
	struct sim_msg *sm;
	int err;

	while ((sm = st->pending)) {
		st->pending = sm->pend_next;
		/* the router before the fault consumed the message: its copy */
		v = sm->reinject_at;
		if ((sm->m->dstmap[v / 32] & BIT(v % 32)) &&
		    !(sm->got[v / 32] & BIT(v % 32)))
			msg_got(st, sm, sm->m->dstmap, v,
				wc_engine_now(st->e) - sm->t_submit);
		for (v = 0, nd = 0; v < t->nnodes; v++)
			if ((sm->m->dstmap[v / 32] & BIT(v % 32)) &&
			    !(sm->got[v / 32] & BIT(v % 32)))
				dsts[nd++] = v;
		if (!nd) {
			msg_finish(st, sm);
			continue;
		}
		err = sim_submit(st, sm->reinject_at, dsts, nd, sm->cls, false, sm);
		if (err)
			return err;
	}
	return 0;
}

static u32 nchannels(const struct wc_topo *t)
{
	return t->nnodes * t->nports;
}

/* Busy cycles of every directed link; U64_MAX where a port leads nowhere. */
static void snapshot_busy(const struct sim_state *st, u64 *busy)
{
	const struct wc_topo *t = &st->cfg->topo;
	u32 node, port;

	for (node = 0; node < t->nnodes; node++)
		for (port = 0; port < t->nports; port++)
			busy[node * t->nports + port] =
				wc_topo_neighbor(t, node, port) == WC_NO_NODE ?
				U64_MAX : wc_engine_channel_busy(st->e, node, port);
}

/* Blocked cycles of every directed link (0 where a port leads nowhere). */
static void snapshot_blocked(const struct sim_state *st, u64 *blocked)
{
	const struct wc_topo *t = &st->cfg->topo;
	u32 node, port;

	for (node = 0; node < t->nnodes; node++)
		for (port = 0; port < t->nports; port++)
			blocked[node * t->nports + port] =
				wc_engine_channel_blocked(st->e, node, port);
}

static void class_stats(const struct sim_hist *h, struct sim_class_stats *c)
{
	memset(c, 0, sizeof(*c));
	if (!h->count)
		return;
	c->count = h->count;
	c->mean = sim_hist_mean(h);
	c->p50 = sim_hist_percentile(h, 500);
	c->p99 = sim_hist_percentile(h, 990);
	c->max = h->max;
}

/* Mean latency of every class together (exact), or 0. */
static double all_mean(const struct sim_hist *lat)
{
	struct sim_hist all;	/* only the scalars are used */
	u32 i;

	all.count = 0;
	all.sum = 0;
	for (i = 0; i < SIM_NCLASSES; i++) {
		all.count += lat[i].count;
		all.sum += lat[i].sum;
	}
	return sim_hist_mean(&all);
}

/* Engine, histograms and the permutation of a run; the window is the caller's. */
static int state_init(struct sim_state *st, const struct sim_config *cfg,
		      struct sim_result *res)
{
	const struct wc_topo *t = &cfg->topo;
	int err;
	u32 i;

	memset(st, 0, sizeof(*st));
	st->cfg = cfg;
	st->res = res;
	st->live.next = st->live.prev = &st->live;
	sim_rng_seed(&st->rng, cfg->seed);
	st->perm = st_zalloc(st, t->nnodes * sizeof(u32));
	st->pos = st_zalloc(st, t->nnodes * sizeof(u32));
	st->lat = st_zalloc(st, SIM_NCLASSES * sizeof(*st->lat));
	st->e = wc_engine_create(t, &cfg->params, cfg->algo, &sim_ops, st);
	if (!st->perm || !st->pos || !st->lat || !st->e)
		return -ENOMEM;
	err = sim_engine_faults(cfg, st->e, NULL);
	if (err)
		return err;
	if (cfg->table && wc_label_scheme(cfg->mcast_scheme)) {
		/* our own set: it holds the source's scratch */
		st->labels = st_zalloc(st, sizeof(*st->labels));
		if (!st->labels)
			return -ENOMEM;
		err = wc_label_set_build(st->labels, t, cfg->table,
					 cfg->table_len, NULL);
		if (err) {
			st_free(st, st->labels, sizeof(*st->labels));
			st->labels = NULL;
			return err;
		}
		st->mem += st->labels->mem;
		st->tables = st->labels;
		st->planner = sim_planner_new(cfg, st->labels, &err);
		if (err)
			return err;
	} else if (cfg->ftmesh) {
		st->tables = &cfg->ftm;
		st->planner = sim_planner_new(cfg, NULL, &err);	/* Strategy 3 */
		if (err)
			return err;
	} else if (cfg->table) {
		st->trees = st_tree_set(st, cfg->table, cfg->table_len, &err);
		if (!st->trees)
			return err;
		st->tables = st->trees;
	}
	st->hdr_words = wc_algo_hdr_words(cfg->algo, cfg->mcast_frac > 0 ?
					  cfg->dsts_max : 1);
	st->msg_bytes = sizeof(struct sim_msg) + st->hdr_words * sizeof(u32) +
			DIV_ROUND_UP(t->nnodes, 32) * sizeof(u32) +
			wc_msg_size(st->e);
	st->mem += wc_engine_mem(st->e);
	st->mem_peak = st->mem > st->mem_peak ? st->mem : st->mem_peak;
	for (i = 0; i < t->nnodes; i++)
		st->perm[i] = st->pos[i] = i;
	for (i = 0; i < SIM_NCLASSES; i++)
		sim_hist_init(&st->lat[i]);
	return 0;
}

static void state_fini(struct sim_state *st)
{
	const struct wc_topo *t = &st->cfg->topo;

	/* Messages still in the engine come back through msg_done. */
	st->closing = true;
	if (st->e) {
		wc_engine_flush(st->e);
		wc_engine_destroy(st->e);
	}
	sim_planner_free(st->planner);
	if (st->labels) {
		st->mem -= st->labels->mem;
		wc_label_set_free(st->labels);
		st_free(st, st->labels, sizeof(*st->labels));
	}
	if (st->trees) {
		st->mem -= st->trees->mem;
		wc_tree_set_free(st->trees);
		st_free(st, st->trees, sizeof(*st->trees));
	}
	while (st->live.next != &st->live) {
		struct sim_msg *sm = st->live.next;

		st->live.next = sm->next;
		msg_free(st, sm);
	}
	st_free(st, st->lat, SIM_NCLASSES * sizeof(*st->lat));
	st_free(st, st->perm, t->nnodes * sizeof(u32));
	st_free(st, st->pos, t->nnodes * sizeof(u32));
}

int sim_run(const struct sim_config *cfg, double load, struct sim_result *res)
{
	const struct wc_topo *t = &cfg->topo;
	double rate = load / sim_msg_flits(cfg) * t->nnodes;
	double flits_norm = (double)sim_msg_flits(cfg) / t->nnodes / cfg->cycles;
	u64 end = cfg->warmup + cfg->cycles + cfg->drain;
	size_t busy_bytes = nchannels(t) * sizeof(u64);
	struct wc_engine_stats s0, s1, s;
	u64 *busy0 = NULL, *busy1 = NULL, *blocked0 = NULL;
	bool have0 = false, have1 = false;
	struct sim_state st;
	u64 now = 0, stop, nlinks = 0;
	double next_arrival, util, busy_sum = 0;
	u32 i;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	memset(&s0, 0, sizeof(s0));
	memset(&s1, 0, sizeof(s1));
	res->load = load;
	if (!(load > 0) || !cfg->cycles)
		return -EINVAL;
	ret = state_init(&st, cfg, res);
	st.win_start = cfg->warmup;
	st.win_end = cfg->warmup + cfg->cycles;
	busy0 = st_zalloc(&st, busy_bytes);
	busy1 = st_zalloc(&st, busy_bytes);
	if (!ret && cfg->links_json) {
		/* kept in @res for --links-json, freed by sim_sweep_free() */
		blocked0 = st_zalloc(&st, busy_bytes);
		res->link_busy = calloc(nchannels(t), sizeof(u64));
		res->link_blocked = calloc(nchannels(t), sizeof(u64));
		if (!blocked0 || !res->link_busy || !res->link_blocked)
			ret = -ENOMEM;
	}
	if (ret || !busy0 || !busy1) {
		ret = -ENOMEM;
		goto out;
	}

	next_arrival = sim_rng_exp(&st.rng, rate);
	for (;;) {
		if (!have0 && now >= st.win_start) {
			wc_engine_get_stats(st.e, &s0);
			snapshot_busy(&st, busy0);
			if (blocked0)
				snapshot_blocked(&st, blocked0);
			have0 = true;
		}
		if (!have1 && now >= st.win_end) {
			wc_engine_get_stats(st.e, &s1);
			snapshot_busy(&st, busy1);
			if (res->link_blocked)
				snapshot_blocked(&st, res->link_blocked);
			have1 = true;
		}
		if (now >= end || (have1 && !st.outstanding) || st.err)
			break;
		/* an arrival in (now - 1, now] is submitted at cycle now */
		while (next_arrival <= (double)now) {
			ret = sim_generate(&st, now);
			if (ret)
				goto out;
			next_arrival += sim_rng_exp(&st.rng, rate);
		}
		stop = (u64)ceil(next_arrival);
		if (!have0 && stop > st.win_start)
			stop = st.win_start;
		if (!have1 && stop > st.win_end)
			stop = st.win_end;
		if (stop > end)
			stop = end;
		/* local faults: re-inject within SIM_REINJECT_CHUNK cycles */
		if (cfg->fault_local && stop > now + SIM_REINJECT_CHUNK)
			stop = now + SIM_REINJECT_CHUNK;
		st.chunk_sim = now;
		st.chunk_eng = wc_engine_now(st.e);
		wc_engine_run(st.e, stop - now, st.tables);
		now = stop;
		ret = sim_reinject(&st);
		if (ret)
			goto out;
		if (st.deadlock_seen) {
			wc_engine_dump_waits(st.e, res->dump, sizeof(res->dump));
			st.deadlock_seen = false;
		}
	}
	if (st.err) {
		ret = st.err;
		goto out;
	}

	wc_engine_get_stats(st.e, &s);
	res->cycles_total = now;
	res->cycles_stepped = s.cycles;
	res->flit_hops_total = s.flit_hops;
	res->incomplete = st.outstanding;
	res->offered = (double)res->tagged * flits_norm;
	res->accepted = (double)st.done_in_win * flits_norm;
	/* The queues grow: latency depends on the run's length. */
	res->unstable = st.outstanding > 0 ||
			res->accepted < SIM_STEADY_RATIO * res->offered;
	res->saturated = res->unstable;		/* sim_sweep adds the knee */
	res->delivered = (double)st.deliveries_in_win * flits_norm;
	if (s1.worms_done > s0.worms_done)
		res->hops_mean = (double)(s1.hops_sum - s0.hops_sum) /
				 (double)(s1.worms_done - s0.worms_done);
	for (i = 0; i < nchannels(t); i++) {
		if (res->link_busy && busy0[i] != U64_MAX) {
			res->link_busy[i] = busy1[i] - busy0[i];
			res->link_blocked[i] -= blocked0[i];
		}
		if (busy0[i] == U64_MAX)
			continue;
		util = (double)(busy1[i] - busy0[i]) / (double)cfg->cycles;
		busy_sum += util;
		nlinks++;
		if (util > res->link_util_max)
			res->link_util_max = util;
	}
	if (nlinks)
		res->link_util_mean = busy_sum / (double)nlinks;
	for (i = 0; i < SIM_NCLASSES; i++)
		class_stats(&st.lat[i], &res->cls[i]);
	res->lat_mean = all_mean(st.lat);
out:
	res->mem_peak = st.mem_peak;
	st_free(&st, busy0, busy_bytes);
	st_free(&st, busy1, busy_bytes);
	if (blocked0)
		st_free(&st, blocked0, busy_bytes);
	state_fini(&st);
	return ret;
}

int sim_zero_load(const struct sim_config *cfg, struct sim_zero_load *z)
{
	/* a single message in an empty network gets a whole run's budget */
	u64 budget = cfg->warmup + cfg->cycles + cfg->drain + 1;
	struct wc_engine_stats s;
	struct sim_result *res = calloc(1, sizeof(*res));
	struct sim_state st;
	u64 now = 0;
	u32 i, c;
	int ret;

	memset(z, 0, sizeof(*z));
	if (!res)
		return -ENOMEM;
	ret = state_init(&st, cfg, res);
	st.win_start = 0;
	st.win_end = U64_MAX;
	for (i = 0; !ret && i < SIM_ZERO_LOAD_MSGS; i++) {
		ret = sim_generate(&st, now);
		st.chunk_sim = now;
		st.chunk_eng = wc_engine_now(st.e);
		if (!ret)
			now += wc_engine_run(st.e, budget, st.tables);
		/* local faults: the re-injected copy, into the idle network */
		while (!ret && st.pending && !wc_engine_busy(st.e)) {
			ret = sim_reinject(&st);
			if (!ret)
				now += wc_engine_run(st.e, budget, st.tables);
		}
		if (!ret && wc_engine_busy(st.e)) {
			/* counted as lost by msg_done: not a zero-load sample */
			z->incomplete++;
			wc_engine_flush(st.e);
		}
	}
	if (!ret) {
		wc_engine_get_stats(st.e, &s);
		if (s.worms_done)
			z->hops_mean = (double)s.hops_sum / (double)s.worms_done;
		for (c = 0; c < SIM_NCLASSES; c++) {
			z->count += st.lat[c].count;
			z->cls_mean[c] = sim_hist_mean(&st.lat[c]);
		}
		z->mean = all_mean(st.lat);
	}
	state_fini(&st);
	free(res);
	return ret;
}

/* ---------------------------------------------------------- saturation */

void sim_find_saturation(const struct sim_point *p, u32 n, double t0,
			 double knee_ratio, struct sim_saturation *s)
{
	double target = knee_ratio * t0, best = 0;
	u32 i, j;

	memset(s, 0, sizeof(*s));
	s->t0 = t0;
	s->knee_ratio = knee_ratio;
	s->knee = t0 > 0 ? SIM_KNEE_NOT_REACHED : SIM_KNEE_UNKNOWN;
	for (i = 0; t0 > 0 && i < n; i++) {
		if (!(p[i].latency >= target))
			continue;
		s->knee_hi = p[i].load;
		if (!i) {
			s->knee = SIM_KNEE_BELOW;
			s->knee_lo = s->knee_load = p[i].load;
			break;
		}
		s->knee = SIM_KNEE_FOUND;
		s->knee_lo = p[i - 1].load;
		/*
		 * 1/latency is linear in the load between the last point below
		 * and the first one at or above: exact for t0 / (1 - load/cap),
		 * and an unfinished point (infinite latency) is 0.
		 */
		s->knee_load = p[i - 1].load + (p[i].load - p[i - 1].load) *
			(1 / p[i - 1].latency - 1 / target) /
			(1 / p[i - 1].latency - 1 / p[i].latency);
		break;
	}

	for (i = 0; i < n; i++)
		if (p[i].accepted > best)
			best = p[i].accepted;
	if (!n || !(p[n - 1].accepted < SIM_PLATEAU_SHORTFALL * p[n - 1].load))
		return;
	for (i = 0; i + 1 < n; i++) {
		for (j = i + 1; j < n; j++)
			if (p[j].accepted - p[i].accepted >=
			    SIM_PLATEAU_SLOPE * (p[j].load - p[i].load))
				break;
		if (j == n) {
			s->plateau = true;
			s->plateau_load = p[i].load;
			s->plateau_accepted = best;
			return;
		}
	}
}

/* ---------------------------------------------------------------- sweep */

u32 sim_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (u32)n : 1;
}

struct sweep_work {
	const struct sim_config *cfg;
	struct sim_sweep *sw;
	int *ret;
	u32 next;		/* points handed out, atomically */
};

/* Take points until none is left, the heaviest (highest load) first. */
static void *sweep_worker(void *arg)
{
	struct sweep_work *w = arg;
	u32 k, i;

	while ((k = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED)) < w->sw->n) {
		i = w->sw->n - 1 - k;
		w->ret[i] = sim_run(w->cfg, sim_point_load(w->cfg, i),
				    &w->sw->res[i]);
	}
	return NULL;
}

void sim_sweep_free(struct sim_sweep *sw)
{
	u32 i;

	for (i = 0; sw->res && i < sw->n; i++) {
		free(sw->res[i].link_busy);
		free(sw->res[i].link_blocked);
	}
	free(sw->res);
	sw->res = NULL;
}

int sim_sweep(const struct sim_config *cfg, u32 jobs, struct sim_sweep *sw)
{
	struct sweep_work w = { .cfg = cfg, .sw = sw };
	struct sim_point *pts = NULL;
	pthread_t *tid = NULL;
	u32 i, started = 0;
	int ret;

	memset(sw, 0, sizeof(*sw));
	sw->n = cfg->npoints;
	sw->failed = sw->n;
	sw->res = calloc(sw->n, sizeof(*sw->res));
	w.ret = calloc(sw->n, sizeof(*w.ret));
	pts = calloc(sw->n, sizeof(*pts));
	if (!jobs)
		jobs = sim_ncpus();
	if (jobs > sw->n)
		jobs = sw->n;
	tid = calloc(jobs, sizeof(*tid));
	if (!sw->res || !w.ret || !pts || !tid) {
		ret = -ENOMEM;
		goto out;
	}
	ret = sim_zero_load(cfg, &sw->zero);
	if (ret)
		goto out;
	/* this thread is worker 0; too few threads only makes it slower */
	for (i = 1; i < jobs; i++)
		if (!pthread_create(&tid[started], NULL, sweep_worker, &w))
			started++;
	sweep_worker(&w);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	for (i = 0; i < sw->n; i++) {
		struct sim_result *r = &sw->res[i];

		if (w.ret[i] && !ret) {
			ret = w.ret[i];
			sw->failed = i;
		}
		if (sw->zero.mean > 0)
			r->lat_ratio = r->lat_mean / sw->zero.mean;
		r->saturated = r->unstable || r->lat_ratio >= cfg->knee_ratio;
		pts[i].load = r->load;
		pts[i].accepted = r->accepted;
		pts[i].latency = r->cls[SIM_UNICAST].count ||
				 r->cls[SIM_MULTICAST].count ? r->lat_mean : INFINITY;
	}
	sim_find_saturation(pts, sw->n, sw->zero.mean, cfg->knee_ratio,
			    &sw->sat);
out:
	free(tid);
	free(pts);
	free(w.ret);
	return ret;
}

/* ------------------------------------------------------------- outputs */

static void format_dims(const struct wc_topo *t, char *buf, size_t len)
{
	u32 i;
	size_t off = 0;

	buf[0] = '\0';
	for (i = 0; i < t->ndims && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%u", i ? "x" : "",
				t->dims[i]);
}

static const char *class_name[SIM_NCLASSES] = { "unicast", "multicast" };
static const char *class_short[SIM_NCLASSES] = { "uni", "mc" };

/* --fault-link, --random-faults: "A-B (tree k)" per faulty link. */
static void print_faults(FILE *f, const struct sim_config *cfg)
{
	u32 i, a, pa, b, pb;

	if (cfg->ftmesh) {
		fprintf(f, "ftmesh:  Strategy %u%s, %u faulty node(s) drawn with seed %llu, %u faulty block(s), 4 subnetworks on VCs v %% 8 = q%s\n",
			cfg->ft_strategy,
			cfg->ft_strategy == WC_FT_STRATEGY3 ? " (each multicast as the planner's plan, unicast by Strategy 2)" : "",
			cfg->nfault_nodes,
			(unsigned long long)cfg->seed, cfg->nft_blocks,
			cfg->ft_detour ? "; left-out destinations on a detour (VCs v % 8 = 4 + q after the waypoint)" : "");
		return;
	}
	if (!cfg->nfaults)
		return;
	fprintf(f, "faults:  %u faulty link(s)", cfg->nfaults);
	if (cfg->random_faults)
		fprintf(f, " (%u drawn with seed %llu)", cfg->random_faults,
			(unsigned long long)cfg->seed);
	fputs(cfg->fault_local ?
	      ", failed in the engine; local information (the sources' table has none, the router before it re-injects):" :
	      cfg->trees_rebuilt ?
	      ", in the table (global information; neither fault-free tree joined every node, so the trees were rebuilt on the live links, as wormcastd does) and failed in the engine:" :
	      ", in the table (global information) and failed in the engine:", f);
	for (i = 0; i < cfg->nfaults; i++) {
		wc_link_ends(&cfg->topo, cfg->fault_links[i], &a, &pa, &b, &pb);
		if (cfg->fault_tree[i] < 0)
			fprintf(f, "%s%u-%u (no tree)", i ? ", " : " ", a, b);
		else
			fprintf(f, "%s%u-%u (tree %d, %u node(s) below it)",
				i ? ", " : " ", a, b, cfg->fault_tree[i],
				cfg->fault_cut[i]);
	}
	fputc('\n', f);
}

/* The tree scheme and what its table's construction saw. */
static void print_trees(FILE *f, const struct sim_config *cfg)
{
	const struct wc_trees_info *in = &cfg->trees_info;
	const struct wc_trees_opts *o = &cfg->trees_opts;

	if (cfg->ftmesh)
		print_faults(f, cfg);
	if (wc_mcast_builtin(cfg->mcast_scheme))
		return;
	if (wc_label_scheme(cfg->mcast_scheme)) {
		fprintf(f, "labels:  multicast %s, the canonical Hamiltonian labeling; table %zu bytes\n",
			wc_mcast_scheme_name(cfg->mcast_scheme), cfg->table_len);
		return;
	}
	fprintf(f, "trees:   multicast %s", wc_mcast_scheme_name(cfg->mcast_scheme));
	if (cfg->mcast_scheme == WORMCAST_MCAST_RT) {
		fprintf(f, ", pair %s", wc_rt_pair_name(o->rt_pair));
		if (o->rt_pair != WC_RT_PAIR_PATH)
			fprintf(f, " (trial %u of %u from seed %llu; balance B %u, median %u; mean CD %.2f, AD %.3f)",
				in->trial, o->trials, (unsigned long long)o->seed,
				in->balance, in->median_balance, in->mean_cd,
				in->mean_ad);
	}
	if (in->cd)
		fprintf(f, "; combined diameter %u, average distance %.3f", in->cd,
			in->ad);
	fprintf(f, "; table %zu bytes\n", cfg->table_len);
	print_faults(f, cfg);
}

static void print_setup(FILE *f, const struct sim_config *cfg)
{
	const struct wc_engine_params *p = &cfg->params;
	char dims[48];

	format_dims(&cfg->topo, dims, sizeof(dims));
	fprintf(f, "wormsim: %s %s, %u nodes, %u links; algorithm %s; seed %llu\n",
		wc_topo_kind_name(cfg->topo.kind), dims, cfg->topo.nnodes,
		wc_topo_nlinks(&cfg->topo), cfg->algo->name,
		(unsigned long long)cfg->seed);
	print_trees(f, cfg);
	fprintf(f, "engine:  flit %u B, buffer %u flit(s), %u VC(s), %u injection and %u consumption channel(s),\n"
		   "         router delay %u, link delay %u, startup %u, %s replication, watchdog %u\n",
		p->flit_bytes, p->buf_flits, p->vcs, p->inj_channels,
		p->cons_channels, p->router_delay, p->link_delay, p->startup,
		p->replication == WC_REPL_ASYNC ? "asynchronous" : "lock-step",
		p->watchdog);
	fprintf(f, "traffic: Poisson arrivals, %u B messages (%u data flits), uniform random destinations,\n"
		   "         multicast fraction %.3f with %u..%u destinations\n",
		cfg->msg_bytes, sim_msg_flits(cfg), cfg->mcast_frac,
		cfg->dsts_min, cfg->dsts_max);
	fprintf(f, "run:     %llu warm-up + %llu measured cycles, drain up to %llu;\n"
		   "         loads in data flits/node/cycle, latencies in cycles\n",
		(unsigned long long)cfg->warmup, (unsigned long long)cfg->cycles,
		(unsigned long long)cfg->drain);
}

/* The zero-load latency and the two saturation points, in words. */
static void print_saturation(FILE *f, const struct sim_config *cfg,
			     const struct sim_sweep *sw)
{
	const struct sim_zero_load *z = &sw->zero;
	const struct sim_saturation *s = &sw->sat;
	u32 c;

	fprintf(f, "\nzero-load latency: %.1f cycles (%llu messages sent one at a time",
		z->mean, (unsigned long long)z->count);
	for (c = 0; c < SIM_NCLASSES; c++)
		if (z->cls_mean[c] > 0)
			fprintf(f, "; %s %.1f", class_name[c], z->cls_mean[c]);
	fprintf(f, "; %.2f hops)\n", z->hops_mean);
	fprintf(f, "saturation, latency: mean latency reaches %.1fx zero-load (%.1f cycles) ",
		s->knee_ratio, s->knee_ratio * s->t0);
	switch (s->knee) {
	case SIM_KNEE_FOUND:
		fprintf(f, "at offered load %.4f (between %.3f and %.3f)\n",
			s->knee_load, s->knee_lo, s->knee_hi);
		break;
	case SIM_KNEE_BELOW:
		fprintf(f, "at or below the first load, %.3f\n", s->knee_lo);
		break;
	case SIM_KNEE_NOT_REACHED:
		fprintf(f, "beyond the last load, %.3f\n", sw->res[sw->n - 1].load);
		break;
	default:
		fprintf(f, "unknown: no zero-load latency\n");
	}
	if (s->plateau)
		fprintf(f, "saturation, throughput: accepted stops growing from offered load %.3f, at %.4f flits/node/cycle\n",
			s->plateau_load, s->plateau_accepted);
	else
		fprintf(f, "saturation, throughput: no plateau within the loads run (accepted still follows the offered load)\n");
}

void sim_print_summary(FILE *f, const struct sim_config *cfg,
		       const struct sim_sweep *sw)
{
	const struct sim_result *res = sw->res;
	u32 i, c, n = sw->n;

	print_setup(f, cfg);
	fprintf(f, "\n%6s %8s %8s %8s", "load", "offered", "accepted", "deliver");
	for (c = 0; c < SIM_NCLASSES; c++)
		fprintf(f, " | %3s %7s %8s %6s %6s", class_short[c], "n", "mean",
			"p50", "p99");
	fprintf(f, " | %6s | %5s %5s %5s | notes\n", "xT0", "util", "umax", "hops");
	for (i = 0; i < n; i++) {
		const struct sim_result *r = &res[i];

		fprintf(f, "%6.3f %8.4f %8.4f %8.4f", r->load, r->offered,
			r->accepted, r->delivered);
		for (c = 0; c < SIM_NCLASSES; c++) {
			const struct sim_class_stats *k = &r->cls[c];

			if (k->count)
				fprintf(f, " | %3s %7llu %8.1f %6llu %6llu", "",
					(unsigned long long)k->count, k->mean,
					(unsigned long long)k->p50,
					(unsigned long long)k->p99);
			else
				fprintf(f, " | %3s %7s %8s %6s %6s", "", "0", "-",
					"-", "-");
		}
		fprintf(f, " | %6.2f | %5.3f %5.3f %5.2f |", r->lat_ratio,
			r->link_util_mean, r->link_util_max, r->hops_mean);
		if (r->lat_ratio >= cfg->knee_ratio)
			fprintf(f, " past the knee");
		if (r->incomplete)
			fprintf(f, "%s unstable (%llu of %llu unfinished)",
				r->lat_ratio >= cfg->knee_ratio ? "," : "",
				(unsigned long long)r->incomplete,
				(unsigned long long)r->tagged);
		else if (r->unstable)
			fprintf(f, "%s unstable (accepted < 95%% of offered)",
				r->lat_ratio >= cfg->knee_ratio ? "," : "");
		if (r->deadlocks)
			fprintf(f, " DEADLOCK x%llu",
				(unsigned long long)r->deadlocks);
		if (r->route_errors)
			fprintf(f, " route errors %llu (%llu messages lost)",
				(unsigned long long)r->route_errors,
				(unsigned long long)r->lost);
		else if (r->lost)
			fprintf(f, " %llu messages lost (a destination missed)",
				(unsigned long long)r->lost);
		if (r->misdelivered)
			fprintf(f, " %llu copies misdelivered",
				(unsigned long long)r->misdelivered);
		if (r->reinjected)
			fprintf(f, " %llu re-injected at the fault",
				(unsigned long long)r->reinjected);
		if (r->plan_fallback)
			fprintf(f, " %llu multicasts without a plan (%s)",
				(unsigned long long)r->plan_fallback,
				cfg->ftmesh ? "Strategy 2" : "dual-path");
		if (cfg->ftmesh)
			fprintf(f, " traffic %.2f steps/multicast (multiple unicast %.2f), %llu destinations left out, %llu on a detour",
				r->ft_mcasts ? (double)r->ft_links / r->ft_mcasts : 0.0,
				r->ft_mcasts ? (double)r->ft_unicast_steps / r->ft_mcasts : 0.0,
				(unsigned long long)r->ft_left_out,
				(unsigned long long)r->ft_detoured);
		if (r->ft_planned)
			fprintf(f, ", %llu planned: %llu links, planner %llu steps, %llu differ",
				(unsigned long long)r->ft_planned,
				(unsigned long long)r->ft_plan_links,
				(unsigned long long)r->ft_plan_steps,
				(unsigned long long)r->ft_plan_mismatch);
		fputc('\n', f);
	}
	print_saturation(f, cfg, sw);
	for (i = 0; i < n; i++)
		if (res[i].dump[0])
			fprintf(f, "\nwatchdog report at load %.3f (first one):\n%s\n",
				res[i].load, res[i].dump);
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static const char *const knee_name[] = {
	[SIM_KNEE_FOUND] = "found", [SIM_KNEE_BELOW] = "below_first_load",
	[SIM_KNEE_NOT_REACHED] = "not_reached", [SIM_KNEE_UNKNOWN] = "unknown",
};

void sim_print_json(FILE *f, const struct sim_config *cfg,
		    const struct sim_sweep *sw)
{
	const struct wc_engine_params *p = &cfg->params;
	const struct sim_saturation *s = &sw->sat;
	const struct sim_result *res = sw->res;
	u32 i, c, n = sw->n;

	fprintf(f, "{\"topology\":\"%s\",\"dims\":[",
		wc_topo_kind_name(cfg->topo.kind));
	for (i = 0; i < cfg->topo.ndims; i++)
		fprintf(f, "%s%u", i ? "," : "", cfg->topo.dims[i]);
	fprintf(f, "],\"nodes\":%u,\"links\":%u,\"algo\":\"%s\",\"seed\":%llu,\n",
		cfg->topo.nnodes, wc_topo_nlinks(&cfg->topo), cfg->algo->name,
		(unsigned long long)cfg->seed);
	fprintf(f, " \"multicast\":{\"scheme\":\"%s\",\"rt_pair\":",
		wc_mcast_scheme_name(cfg->mcast_scheme));
	if (cfg->mcast_scheme == WORMCAST_MCAST_RT)
		fprintf(f, "\"%s\",\"rt_seed\":%llu,\"rt_trials\":%u,\"rt_trial\":%u,",
			wc_rt_pair_name(cfg->trees_opts.rt_pair),
			(unsigned long long)cfg->trees_opts.seed,
			cfg->trees_opts.trials, cfg->trees_info.trial);
	else
		fputs("null,", f);
	if (cfg->trees_info.cd)
		fprintf(f, "\"cd\":%u,\"ad\":%.4f},\n", cfg->trees_info.cd,
			cfg->trees_info.ad);
	else
		fputs("\"cd\":null,\"ad\":null},\n", f);
	fprintf(f, " \"fault_info\":\"%s\",\"trees_rebuilt\":%s,\"faults\":[",
		cfg->fault_local ? "local" : "global",
		cfg->trees_rebuilt ? "true" : "false");
	for (i = 0; i < cfg->nfaults; i++) {
		u32 a, pa, b, pb;

		wc_link_ends(&cfg->topo, cfg->fault_links[i], &a, &pa, &b, &pb);
		fprintf(f, "%s{\"a\":%u,\"b\":%u,\"tree\":", i ? "," : "", a, b);
		if (cfg->fault_tree[i] < 0)
			fputs("null,\"below\":0}", f);
		else
			fprintf(f, "%d,\"below\":%u}", cfg->fault_tree[i],
				cfg->fault_cut[i]);
	}
	fputs("],\n", f);
	fprintf(f, " \"params\":{\"flit_bytes\":%u,\"buf_flits\":%u,\"vcs\":%u,"
		   "\"inj_channels\":%u,\"cons_channels\":%u,\"router_delay\":%u,"
		   "\"link_delay\":%u,\"startup\":%u,\"replication\":\"%s\","
		   "\"watchdog\":%u},\n",
		p->flit_bytes, p->buf_flits, p->vcs, p->inj_channels,
		p->cons_channels, p->router_delay, p->link_delay, p->startup,
		p->replication == WC_REPL_ASYNC ? "async" : "lockstep",
		p->watchdog);
	fprintf(f, " \"traffic\":{\"msg_bytes\":%u,\"msg_flits\":%u,"
		   "\"mcast_frac\":%.6f,\"dsts_min\":%u,\"dsts_max\":%u,"
		   "\"warmup\":%llu,\"cycles\":%llu,\"drain\":%llu},\n",
		cfg->msg_bytes, sim_msg_flits(cfg), cfg->mcast_frac,
		cfg->dsts_min, cfg->dsts_max, (unsigned long long)cfg->warmup,
		(unsigned long long)cfg->cycles, (unsigned long long)cfg->drain);
	fprintf(f, " \"zero_load\":{\"count\":%llu,\"mean\":%.3f,",
		(unsigned long long)sw->zero.count, sw->zero.mean);
	for (c = 0; c < SIM_NCLASSES; c++)
		if (sw->zero.cls_mean[c] > 0)
			fprintf(f, "\"%s\":%.3f,", class_name[c], sw->zero.cls_mean[c]);
		else
			fprintf(f, "\"%s\":null,", class_name[c]);
	fprintf(f, "\"hops_mean\":%.4f,\"incomplete\":%llu},\n",
		sw->zero.hops_mean, (unsigned long long)sw->zero.incomplete);
	fprintf(f, " \"saturation\":{\"knee_ratio\":%.3f,\"knee\":\"%s\",\"knee_load\":",
		s->knee_ratio, knee_name[s->knee]);
	if (s->knee == SIM_KNEE_FOUND || s->knee == SIM_KNEE_BELOW)
		fprintf(f, "%.6f,\"knee_lo\":%.6f,\"knee_hi\":%.6f,", s->knee_load,
			s->knee_lo, s->knee_hi);
	else
		fputs("null,\"knee_lo\":null,\"knee_hi\":null,", f);
	if (s->plateau)
		fprintf(f, "\"plateau_load\":%.6f,\"plateau_accepted\":%.6f},\n",
			s->plateau_load, s->plateau_accepted);
	else
		fputs("\"plateau_load\":null,\"plateau_accepted\":null},\n", f);
	fprintf(f, " \"runs\":[");
	for (i = 0; i < n; i++) {
		const struct sim_result *r = &res[i];

		fprintf(f, "%s\n  {\"load\":%.6f,\"offered\":%.6f,\"accepted\":%.6f,"
			   "\"delivered\":%.6f,", i ? "," : "", r->load,
			r->offered, r->accepted, r->delivered);
		for (c = 0; c < SIM_NCLASSES; c++) {
			const struct sim_class_stats *k = &r->cls[c];

			if (k->count)
				fprintf(f, "\"%s\":{\"count\":%llu,\"mean\":%.3f,"
					   "\"p50\":%llu,\"p99\":%llu,\"max\":%llu},",
					class_name[c], (unsigned long long)k->count,
					k->mean, (unsigned long long)k->p50,
					(unsigned long long)k->p99,
					(unsigned long long)k->max);
			else
				fprintf(f, "\"%s\":{\"count\":0,\"mean\":null,"
					   "\"p50\":null,\"p99\":null,\"max\":null},",
					class_name[c]);
		}
		fprintf(f, "\"latency_mean\":%.3f,\"latency_ratio\":%.4f,"
			   "\"link_util_mean\":%.6f,\"link_util_max\":%.6f,"
			   "\"hops_mean\":%.4f,\"tagged\":%llu,\"incomplete\":%llu,\"lost\":%llu,\"misdelivered\":%llu,\"reinjected\":%llu,"
			   "\"unstable\":%s,\"saturated\":%s,\"deadlocks\":%llu,\"route_errors\":%llu,"
			   "\"plan_fallback\":%llu,\"cycles_total\":%llu,\"flit_hops_total\":%llu,\"mem_peak_bytes\":%llu,"
			   "\"ft_left_out\":%llu,\"ft_detoured\":%llu,\"ft_mcasts\":%llu,\"ft_links\":%llu,\"ft_unicast_steps\":%llu,"
			   "\"ft_planned\":%llu,\"ft_plan_links\":%llu,\"ft_plan_steps\":%llu,\"ft_plan_mismatch\":%llu,"
			   "\"watchdog_dump\":",
			r->lat_mean, r->lat_ratio,
			r->link_util_mean, r->link_util_max, r->hops_mean,
			(unsigned long long)r->tagged,
			(unsigned long long)r->incomplete,
			(unsigned long long)r->lost,
			(unsigned long long)r->misdelivered,
			(unsigned long long)r->reinjected,
			r->unstable ? "true" : "false",
			r->saturated ? "true" : "false",
			(unsigned long long)r->deadlocks,
			(unsigned long long)r->route_errors,
			(unsigned long long)r->plan_fallback,
			(unsigned long long)r->cycles_total,
			(unsigned long long)r->flit_hops_total,
			(unsigned long long)r->mem_peak,
			(unsigned long long)r->ft_left_out,
			(unsigned long long)r->ft_detoured,
			(unsigned long long)r->ft_mcasts,
			(unsigned long long)r->ft_links,
			(unsigned long long)r->ft_unicast_steps,
			(unsigned long long)r->ft_planned,
			(unsigned long long)r->ft_plan_links,
			(unsigned long long)r->ft_plan_steps,
			(unsigned long long)r->ft_plan_mismatch);
		if (r->dump[0])
			json_string(f, r->dump);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fprintf(f, "\n ]\n}\n");
}

void sim_print_csv(FILE *f, const struct sim_config *cfg,
		   const struct sim_sweep *sw)
{
	const struct sim_result *res = sw->res;
	char dims[48], label[32];
	u32 i, c, n = sw->n;

	format_dims(&cfg->topo, dims, sizeof(dims));
	sim_scheme_label(cfg, label, sizeof(label));
	fputs("topology,dims,algo,seed,msg_flits,mcast_frac,load,offered,"
	      "accepted,delivered,uni_count,uni_mean,uni_p50,uni_p99,uni_max,"
	      "mc_count,mc_mean,mc_p50,mc_p99,mc_max,latency_mean,latency_ratio,"
	      "link_util_mean,link_util_max,hops_mean,tagged,incomplete,lost,"
	      "unstable,saturated,deadlocks,route_errors,cycles_total\n", f);
	for (i = 0; i < n; i++) {
		const struct sim_result *r = &res[i];

		fprintf(f, "%s,%s,%s,%llu,%u,%.4f,%.4f,%.6f,%.6f,%.6f",
			wc_topo_kind_name(cfg->topo.kind), dims, label,
			(unsigned long long)cfg->seed, sim_msg_flits(cfg),
			cfg->mcast_frac, r->load, r->offered, r->accepted,
			r->delivered);
		for (c = 0; c < SIM_NCLASSES; c++) {
			const struct sim_class_stats *k = &r->cls[c];

			if (k->count)
				fprintf(f, ",%llu,%.3f,%llu,%llu,%llu",
					(unsigned long long)k->count, k->mean,
					(unsigned long long)k->p50,
					(unsigned long long)k->p99,
					(unsigned long long)k->max);
			else
				fputs(",0,,,,", f);
		}
		fprintf(f, ",%.3f,%.4f,%.6f,%.6f,%.4f,%llu,%llu,%llu,%d,%d,%llu,%llu,%llu\n",
			r->lat_mean, r->lat_ratio,
			r->link_util_mean, r->link_util_max, r->hops_mean,
			(unsigned long long)r->tagged,
			(unsigned long long)r->incomplete,
			(unsigned long long)r->lost, r->unstable ? 1 : 0,
			r->saturated ? 1 : 0,
			(unsigned long long)r->deadlocks,
			(unsigned long long)r->route_errors,
			(unsigned long long)r->cycles_total);
	}
}

/* ---------------------------------------------------------------- plot */

/* Latency of a class at a point, or NaN (gnuplot skips it). */
static double plot_value(const struct sim_result *r, u32 c, bool p99)
{
	if (r->unstable || !r->cls[c].count)
		return NAN;
	return p99 ? (double)r->cls[c].p99 : r->cls[c].mean;
}

static int write_plot_files(const char *prefix, const struct sim_config *cfg,
			    const struct sim_sweep *sw, char *err, size_t errlen)
{
	const struct sim_result *res = sw->res;
	const struct sim_saturation *s = &sw->sat;
	u32 n = sw->n;
	bool have[SIM_NCLASSES] = { false, false };
	char path[4096], dims[48], label[32];
	const char *sep = "plot ";
	FILE *f;
	u32 i, c;

	snprintf(path, sizeof(path), "%s.dat", prefix);
	f = fopen(path, "w");
	if (!f)
		return errf(err, errlen, 1, "%s: %s", path, strerror(errno));
	fprintf(f, "# load accepted uni_mean uni_p99 mc_mean mc_p99 (NaN: no data or unstable)\n");
	for (i = 0; i < n; i++) {
		fprintf(f, "%.4f %.6f", res[i].load, res[i].accepted);
		for (c = 0; c < SIM_NCLASSES; c++) {
			fprintf(f, " %.3f %.3f", plot_value(&res[i], c, false),
				plot_value(&res[i], c, true));
			if (!isnan(plot_value(&res[i], c, false)))
				have[c] = true;
		}
		fputc('\n', f);
	}
	if (fclose(f))
		return errf(err, errlen, 1, "%s: %s", path, strerror(errno));

	snprintf(path, sizeof(path), "%s.gp", prefix);
	f = fopen(path, "w");
	if (!f)
		return errf(err, errlen, 1, "%s: %s", path, strerror(errno));
	format_dims(&cfg->topo, dims, sizeof(dims));
	fprintf(f, "# gnuplot script written by wormsim: gnuplot '%s.gp'\n", prefix);
	fprintf(f, "set title \"wormsim: %s %s, %s, %u-flit messages, multicast fraction %.2f\"\n",
		wc_topo_kind_name(cfg->topo.kind), dims,
		sim_scheme_label(cfg, label, sizeof(label)),
		sim_msg_flits(cfg), cfg->mcast_frac);
	fprintf(f, "set xlabel \"offered load (data flits/node/cycle)\"\n"
		   "set ylabel \"latency (cycles)\"\n"
		   "set logscale y\n"
		   "set y2label \"accepted (flits/node/cycle)\"\n"
		   "set y2tics\n"
		   "set ytics nomirror\n"
		   "set xrange [0:%g]\n"
		   "set y2range [0:%g]\n"
		   "set key top left\n"
		   "set grid\n", res[n - 1].load, res[n - 1].load);
	if (!have[SIM_UNICAST] && !have[SIM_MULTICAST])
		fprintf(f, "set yrange [1:10]\n"
			   "set label 1 \"every point is unstable\" at graph 0.5, graph 0.5 center\n");
	if (s->knee == SIM_KNEE_FOUND)
		fprintf(f, "set arrow 1 from %g, graph 0 to %g, graph 1 nohead dashtype 3\n"
			   "set label 2 \"%gx zero-load latency\" at %g, graph 0.95 right offset -0.5,0\n",
			s->knee_load, s->knee_load, s->knee_ratio, s->knee_load);
	if (s->plateau)
		fprintf(f, "set arrow 2 from %g, graph 0 to %g, graph 1 nohead dashtype 4\n"
			   "set label 3 \"plateau %.3f\" at %g, graph 0.88 left offset 0.5,0\n",
			s->plateau_load, s->plateau_load, s->plateau_accepted,
			s->plateau_load);
	fprintf(f, "plotcmd = \"");
	for (c = 0; c < SIM_NCLASSES; c++) {
		if (!have[c])
			continue;
		fprintf(f, "%s'%s.dat' using 1:%u with linespoints title '%s mean', "
			   "'' using 1:%u with linespoints dashtype 2 title '%s p99'",
			sep, prefix, 3 + 2 * c, class_name[c], 4 + 2 * c,
			class_name[c]);
		sep = ", ";
	}
	fprintf(f, "%s'%s.dat' using 1:2 axes x1y2 with lines lw 2 title 'accepted'\"\n",
		sep, prefix);
	fprintf(f, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
		   "  set terminal pngcairo size 900,600\n"
		   "} else {\n"
		   "  set terminal png size 900,600\n"
		   "}\n"
		   "set output '%s.png'\n"
		   "eval plotcmd\n"
		   "set terminal svg size 900,600\n"
		   "set output '%s.svg'\n"
		   "eval plotcmd\n"
		   "set output\n", prefix, prefix);
	if (fclose(f))
		return errf(err, errlen, 1, "%s: %s", path, strerror(errno));
	return 0;
}

int sim_plot(const char *prefix, const struct sim_config *cfg,
	     const struct sim_sweep *sw, char *err, size_t errlen)
{
	char script[4096];
	char *argv[3];
	posix_spawn_file_actions_t fa;
	int ret, status;
	pid_t pid;

	ret = write_plot_files(prefix, cfg, sw, err, errlen);
	if (ret)
		return ret;
	snprintf(script, sizeof(script), "%s.gp", prefix);
	argv[0] = "gnuplot";
	argv[1] = script;
	argv[2] = NULL;
	/* gnuplot must not read our stdin (CI has none) */
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	ret = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (ret)
		return errf(err, errlen, 2,
			    "cannot run gnuplot (%s): install gnuplot-nox; %s.dat and %s.gp are written",
			    strerror(ret), prefix, prefix);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return errf(err, errlen, 2,
			    "gnuplot failed on %s; %s.dat is written", script, prefix);
	return 0;
}

void sim_print_links_json(FILE *f, const struct sim_config *cfg,
			  const struct sim_sweep *sw)
{
	const struct wc_topo *t = &cfg->topo;
	u32 i, d, node, port, peer;
	bool first;

	fputc('[', f);
	for (i = 0; i < sw->n; i++) {
		const struct sim_result *r = &sw->res[i];

		fprintf(f, "%s{\"topology\":\"%s\",\"dims\":[", i ? "," : "",
			wc_topo_kind_name(t->kind));
		for (d = 0; d < t->ndims; d++)
			fprintf(f, "%s%u", d ? "," : "", t->dims[d]);
		fprintf(f, "],\"nodes\":%u,\"load\":%.6g,\"cycles\":%llu,\"links\":[",
			t->nnodes, r->load, (unsigned long long)cfg->cycles);
		first = true;
		for (node = 0; r->link_busy && node < t->nnodes; node++)
			for (port = 0; port < t->nports; port++) {
				peer = wc_topo_neighbor(t, node, port);
				if (peer == WC_NO_NODE)
					continue;
				fprintf(f, "%s{\"node\":%u,\"port\":%u,\"peer\":%u,"
					"\"busy\":%llu,\"blocked\":%llu}",
					first ? "" : ",", node, port, peer,
					(unsigned long long)r->link_busy[node * t->nports + port],
					(unsigned long long)r->link_blocked[node * t->nports + port]);
				first = false;
			}
		fputs("]}", f);
	}
	fputs("]\n", f);
}
