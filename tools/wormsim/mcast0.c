// SPDX-License-Identifier: GPL-2.0
/*
 * wormsim --mcast0: zero-load multicast latency, one multicast at a time
 * into an empty network, with processor send and receive overheads and,
 * for the unicast-based baseline, receivers that re-inject (sim.h).
 * wormsim --bcast: the same driver, receivers re-injecting by a broadcast
 * schedule of daemon/lib/dcf.c instead of by recursive halving.
 *
 * Clocks.  The engine skips idle time, so the driver keeps its own clock,
 * now = engine clock + off, and moves off forward while the engine is idle.
 * A delivery can only cause a send send_ovh + recv_ovh cycles later, so
 * running the engine in steps no longer than that (and never past the
 * next pending send) submits every send at its exact time, except that
 * with no overhead at all a send caused in cycle c enters in cycle c + 1
 * (one-cycle steps; the kernel's relays do the same).
 */
#include <stdlib.h>

#include "sim.h"
#include "relay.h"
#include "plh.h"

struct m0_send {
	u64 t;			/* driver time of submission */
	u32 from, lo, hi;	/* relay: chain range handed to the target */
	u32 target;		/* chain position (relay) */
	u32 uni;		/* --bcast: the schedule's unicast */
	u32 depth;		/* sends on the chain from the source */
	bool queued;
};

struct m0 {
	const struct sim_config *cfg;
	struct wc_engine *e;
	const void *tables;
	struct sim_planner *planner;	/* ocms, otms */
	u64 plan_fallback;
	u64 off;
	bool relay;
	u32 k;			/* destinations */
	u32 *chain;		/* source and destinations, by label */
	u32 *pos;		/* node -> chain position, or U32_MAX */
	u64 *cpu_free;		/* per chain position */
	struct m0_send *sends;	/* at most k + 1 */
	u32 nsends;
	u64 last, sum;		/* receptions: latest, and their sum */
	u32 got, depth;
	u64 deadlocks, route_errors;
	/*
	 * --bcast: chain[i] = i, the schedule, and its unicasts by sender:
	 * node v's are order[first[v] .. first[v + 1]), in the order it
	 * handles them (a sender's unicasts of two phases are not adjacent
	 * in sched->uni).
	 */
	const struct dcf_sched *sched;
	u32 *first;		/* nnodes + 1 */
	u32 *order;		/* nuni */
	u64 *port_free;		/* per node and port: model's internal channel */
	u64 len;		/* the model's L (cycles a unicast holds its port) */
	u32 *got_node;		/* receptions per node */
	u64 *recv;		/* per unicast: its reception, driver time */
	bool *behind;		/* per unicast: entered as its port was freed */
	struct wc_trace *trace;	/* per unicast */
};

static u64 m0_now(const struct m0 *s)
{
	return wc_engine_now(s->e) + s->off;
}

static struct m0_send *m0_push(struct m0 *s, u64 t, u32 from, u32 depth)
{
	struct m0_send *x = &s->sends[s->nsends++];

	x->t = t;
	x->from = from;
	x->depth = depth;
	x->queued = true;
	return x;
}

/*
 * The holder at chain position @h of range [@lo, @hi), free from @t on,
 * hands the far half on and keeps its own until it is alone (relay.h,
 * the same split as the kernel's multiphase scheme).
 */
static void m0_relay(struct m0 *s, u32 h, u32 lo, u32 hi, u64 t, u32 depth)
{
	struct wc_relay_send r;

	while (wc_relay_next(h, &lo, &hi, &r)) {
		struct m0_send *x;

		t = wc_send_due(&s->cpu_free[h], t, s->cfg->send_ovh);
		x = m0_push(s, t, h, depth + 1);
		x->target = r.target;
		x->lo = r.lo;
		x->hi = r.hi;
	}
}

/*
 * Node @v, informed at @t, hands its scheduled unicasts to the network in
 * order: the i-th is ready i * send_ovh after @t, and enters its port when
 * ready and when the previous unicast through that port has had len
 * cycles of it (section 6.1, as dcf_latency()); under --bcast-relay queue
 * as soon as ready, in order, behind the node's earlier sends in its
 * injection queue (the kernel's relay: kmod/relay.c).
 */
static void m0_sched(struct m0 *s, u32 v, u64 t, u32 depth)
{
	const struct dcf_sched *sc = s->sched;
	u32 j;

	for (j = s->first[v]; j < s->first[v + 1]; j++) {
		u32 i = s->order[j];
		const struct dcf_unicast *u = &sc->uni[i];
		u64 *pf = &s->port_free[v * DCF_NPORTS + sc->hops[u->hop0].port];
		struct m0_send *x;
		u64 go;

		t = wc_send_due(&s->cpu_free[v], t, s->cfg->send_ovh);
		go = t > *pf ? t : *pf;
		s->behind[i] = *pf && go == *pf;
		/* --bcast-relay queue: no port hold, the kernel's relay */
		*pf = s->cfg->bcast_queue ? 0 : go + s->len;
		x = m0_push(s, go, v, depth + 1);
		x->target = u->dst;
		x->uni = i;
	}
}

static void m0_deliver(void *priv, struct wc_msg *m, u32 node, u64 latency)
{
	struct m0 *s = priv;
	struct m0_send *x = m->cookie;
	u64 t = x->t + latency + s->cfg->recv_ovh;

	s->got++;
	s->sum += t;
	if (t > s->last)
		s->last = t;
	if (x->depth > s->depth)
		s->depth = x->depth;
	if (s->sched) {
		s->recv[x->uni] = t;
		if (!s->got_node[node]++)
			m0_sched(s, node, t, x->depth);
	} else if (s->relay) {
		m0_relay(s, x->target, x->lo, x->hi, t, x->depth);
	}
}

static void m0_done(void *priv, struct wc_msg *m)
{
	free(m);
}

static void m0_route_error(void *priv, struct wc_msg *m, u32 node, int err)
{
	((struct m0 *)priv)->route_errors++;
}

static void m0_deadlock(void *priv, u64 cycle)
{
	((struct m0 *)priv)->deadlocks++;
}

static const struct wc_engine_ops m0_ops = {
	.deliver = m0_deliver,
	.msg_done = m0_done,
	.route_error = m0_route_error,
	.deadlock = m0_deadlock,
};

static int m0_submit(struct m0 *s, struct m0_send *x)
{
	u32 n = s->relay ? 1 : s->k, i;
	u32 words = wc_algo_hdr_words(s->cfg->algo, n);
	size_t sz = wc_msg_size(s->e);
	struct wc_msg *m = calloc(1, sz + words * sizeof(u32));
	u32 src = s->chain[x->from];

	if (!m)
		return -ENOMEM;
	wc_msg_init(s->e, m, src, s->cfg->msg_bytes, x);
	if (words) {
		m->hdr = (u32 *)((char *)m + sz);
		m->hdr_max = words;
	}
	if (s->relay)
		wc_msg_add_dst(s->e, m, s->chain[x->target]);
	else
		for (i = 0; i <= s->k; i++)
			if (i != x->from)
				wc_msg_add_dst(s->e, m, s->chain[i]);
	if (s->planner && sim_plan_msg(s->planner, m))
		s->plan_fallback++;	/* by dual-path, as the kernel */
	if (s->trace)
		m->trace = &s->trace[x->uni];
	/*
	 * Receptions count from the submission.  A send due in the cycle
	 * of the delivery that caused it (t_s = t_r = 0) enters the next
	 * one: the engine cannot inject in the cycle it consumed.
	 */
	x->t = m0_now(s);
	x->queued = false;
	wc_engine_submit(s->e, m);
	return 0;
}

/* One multicast from chain position @src; 0 or -ENOMEM. */
static int m0_one(struct m0 *s, u32 src)
{
	u64 gap = (u64)s->cfg->send_ovh + s->cfg->recv_ovh;
	u32 i;
	int err;

	s->nsends = 0;
	s->last = s->sum = 0;
	s->got = s->depth = 0;
	s->off = 0 - wc_engine_now(s->e);	/* the multicast starts at 0 */
	for (i = 0; i <= s->k; i++)
		s->cpu_free[i] = 0;
	if (s->sched)
		m0_sched(s, src, 0, 0);
	else if (s->relay)
		m0_relay(s, src, 0, s->k + 1, 0, 0);
	else
		m0_push(s, s->cfg->send_ovh, src, 1);
	for (;;) {
		u64 now = m0_now(s), next = U64_MAX;

		for (i = 0; i < s->nsends; i++) {
			struct m0_send *x = &s->sends[i];

			if (x->queued && x->t <= now) {
				err = m0_submit(s, x);
				if (err)
					return err;
			} else if (x->queued && x->t < next) {
				next = x->t;
			}
		}
		if (!wc_engine_busy(s->e)) {
			if (next == U64_MAX)
				return 0;
			s->off += next - now;	/* idle until the next send */
			continue;
		}
		wc_engine_run(s->e, gap < 1 ? 1 : next - now < gap ?
			      next - now : gap, s->tables);
		if (s->deadlocks || s->route_errors)
			return 0;
	}
}

/* Source and @k destinations, drawn with @rng, sorted by label. */
static u32 m0_draw(struct m0 *s, struct sim_rng *rng, const u32 *label,
		   u32 *perm)
{
	u32 n = s->cfg->topo.nnodes, i, src;

	for (i = 0; i <= s->k; i++) {
		u32 j = i + sim_rng_below(rng, n - i), x = perm[i];

		perm[i] = perm[j];
		perm[j] = x;
	}
	src = perm[0];
	for (i = 0; i <= s->k; i++)
		s->chain[i] = perm[i];
	wc_relay_sort(s->chain, s->k + 1, label);
	for (i = 0; i <= s->k; i++)
		if (s->chain[i] == src)
			return i;
	return 0;
}

int sim_mcast0(const struct sim_config *cfg, struct sim_mcast0 *r)
{
	const struct wc_topo *t = &cfg->topo;
	struct wc_label_set set = { 0 };
	struct wc_labeling lb;
	struct sim_rng rng;
	struct m0 s = { .cfg = cfg, .k = cfg->mcast0 };
	u32 *perm, *label, d, v, p, np = t->nports;
	u64 *busy;
	u64 sum_last = 0, sum_dst = 0, sum_depth = 0, chans = 0;
	u64 plan_chans = 0, plan_len = 0;
	enum wc_pathplan_algo algo;
	bool planned = !sim_plan_algo(cfg->mcast_scheme, &algo);
	u32 *dests = NULL;
	int err = -ENOMEM;

	memset(r, 0, sizeof(*r));
	if (wc_labeling_init(&lb, t))
		return -EINVAL;
	s.relay = wc_mcast_builtin(cfg->mcast_scheme);
	if (!s.relay && !wc_label_scheme(cfg->mcast_scheme)) {
		wc_labeling_free(&lb);
		return -EOPNOTSUPP;
	}
	if (!s.relay) {
		err = wc_label_set_build(&set, t, cfg->table, cfg->table_len,
					 NULL);
		if (err) {
			wc_labeling_free(&lb);
			return err;
		}
		s.tables = &set;
		s.planner = sim_planner_new(cfg, &set, &err);
		if (err) {
			wc_label_set_free(&set);
			wc_labeling_free(&lb);
			return err;
		}
	}
	label = lb.label;
	perm = calloc(t->nnodes, sizeof(u32));
	busy = calloc((size_t)t->nnodes * np, sizeof(u64));
	s.chain = calloc(s.k + 1, sizeof(u32));
	s.cpu_free = calloc(s.k + 1, sizeof(u64));
	s.sends = calloc(s.k + 1, sizeof(*s.sends));
	dests = calloc(s.k + 1, sizeof(u32));
	s.e = wc_engine_create(t, &cfg->params, cfg->algo, &m0_ops, &s);
	err = -ENOMEM;
	if (!perm || !busy || !s.chain || !s.cpu_free || !s.sends || !dests ||
	    !s.e)
		goto out;
	for (v = 0; v < t->nnodes; v++)
		perm[v] = v;
	sim_rng_seed(&rng, cfg->seed);
	for (d = 0; d < cfg->draws; d++) {
		u32 src = m0_draw(&s, &rng, label, perm);

		if (planned) {
			/* the offline planner's figures for the same multicast */
			struct wc_mstar ms;
			u32 i, n = 0;

			for (i = 0; i <= s.k; i++)
				if (i != src)
					dests[n++] = s.chain[i];
			if (!wc_pathplan(&lb, algo, s.chain[src], dests, n, &ms)) {
				plan_chans += ms.channels;
				plan_len += ms.max_length;
				wc_mstar_free(&ms);
			}
		}

		for (v = 0; v < t->nnodes * np; v++)
			busy[v] = wc_engine_channel_busy(s.e, v / np, v % np);
		err = m0_one(&s, src);
		if (err)
			goto out;
		r->deadlocks += s.deadlocks;
		r->route_errors += s.route_errors;
		if (s.deadlocks || s.route_errors) {
			wc_engine_flush(s.e);
			s.deadlocks = s.route_errors = 0;
		}
		r->lost += s.k - s.got;
		sum_last += s.last;
		sum_dst += s.sum;
		sum_depth += s.depth;
		if (s.last > r->max)
			r->max = (u32)s.last;
		for (v = 0; v < t->nnodes; v++)
			for (p = 0; p < np; p++)
				chans += wc_engine_channel_busy(s.e, v, p) !=
					 busy[v * np + p];
	}
	r->mean = (double)sum_last / cfg->draws;
	r->mean_dst = (double)sum_dst / ((double)cfg->draws * s.k);
	r->phases = (double)sum_depth / cfg->draws;
	r->channels = (double)chans / cfg->draws;
	r->plan_channels = (double)plan_chans / cfg->draws;
	r->plan_max_length = (double)plan_len / cfg->draws;
	r->plan_fallback = s.plan_fallback;
	err = 0;
out:
	wc_engine_destroy(s.e);
	free(perm);
	free(busy);
	free(s.chain);
	free(s.cpu_free);
	free(s.sends);
	free(dests);
	sim_planner_free(s.planner);
	if (s.tables)
		wc_label_set_free(&set);
	wc_labeling_free(&lb);
	return err;
}

void sim_print_mcast0(FILE *f, const struct sim_config *cfg,
		      const struct sim_mcast0 *r)
{
	char name[64];

	fprintf(f, "mcast0 scheme=%s k=%u draws=%u data_flits=%u send_ovh=%u recv_ovh=%u router_delay=%u latency=%.2f per_dst=%.2f max=%u phases=%.2f channels=%.2f plan_channels=%.2f plan_max_length=%.2f plan_fallback=%llu lost=%llu deadlocks=%llu route_errors=%llu\n",
		cfg->mcast_scheme == WORMCAST_MCAST_UNICAST ? "unicast-relay" :
		cfg->mcast_scheme == WORMCAST_MCAST_MULTIPHASE ? "multiphase" :
		sim_scheme_label(cfg, name, sizeof(name)),
		cfg->mcast0, cfg->draws, sim_msg_flits(cfg), cfg->send_ovh,
		cfg->recv_ovh, cfg->params.router_delay, r->mean, r->mean_dst,
		r->max, r->phases, r->channels, r->plan_channels,
		r->plan_max_length, (unsigned long long)r->plan_fallback,
		(unsigned long long)r->lost,
		(unsigned long long)r->deadlocks,
		(unsigned long long)r->route_errors);
}

/* The links @tr recorded are exactly the hops of unicast @u. */
static bool bcast_route_ok(const struct dcf_sched *sc,
			   const struct dcf_unicast *u,
			   const struct wc_trace *tr, u32 half)
{
	u32 j;

	if (tr->lost || tr->nlinks != u->nhops)
		return false;
	for (j = 0; j < u->nhops; j++) {
		const struct dcf_hop *h = &sc->hops[u->hop0 + j];
		const struct wc_trace_link *l = &tr->links[j];

		if (l->node != h->node || l->port != h->port ||
		    (l->vc >= half ? DCF_VC_P : DCF_VC_LH) != h->vc)
			return false;
	}
	return true;
}

/*
 * Count a unicast of step @step, blocked @blocked header-cycles, that
 * entered its port right behind its sender's previous one if @behind,
 * received at @recv.
 */
static void bcast_tally(struct sim_bcast *r, u32 step, u64 blocked,
			bool behind, u64 recv)
{
	struct sim_bcast_step *st;

	if (step < 1 || step > r->nsteps)
		return;
	st = &r->step[step - 1];
	st->unicasts++;
	if (recv > st->last)
		st->last = recv;
	if (!blocked)
		return;
	if (behind) {
		st->own_port_worms++;
		st->own_port_cycles += blocked;
		r->own_port_worms++;
		r->own_port_cycles += blocked;
		if (blocked > r->own_port_max)
			r->own_port_max = blocked;
	} else {
		st->blocked_worms++;
		st->blocked_cycles += blocked;
		r->blocked_worms++;
		r->blocked_cycles += blocked;
	}
}

int sim_bcast(const struct sim_config *cfg, struct sim_bcast *r)
{
	const struct wc_topo *t = &cfg->topo;
	struct dcf_sched sc = { 0 };
	struct dcf_timing tm;
	struct m0 s = { .cfg = cfg, .relay = true, .sched = &sc };
	struct wc_trace_link *links = NULL;
	struct wc_trace_dst *tdst = NULL;
	const char *why = NULL;
	u32 i, v;
	int err;

	memset(r, 0, sizeof(*r));
	if (!cfg->bcast || wc_algo_plh.check(t, &cfg->params, &why))
		return -EINVAL;
	err = dcf_build(&sc, cfg->bcast - 1, t->dims[0], cfg->bcast_src, NULL,
			&why);
	if (err)
		return err;
	/* The worm: 1 header flit, the data, the tail (plh_next_worm()). */
	r->len = cfg->params.startup + sim_msg_flits(cfg) + 1;
	tm.ts = cfg->send_ovh;
	tm.tr = cfg->recv_ovh;
	tm.tc = 1;
	tm.len = r->len;
	err = dcf_check(&sc, DCF_CHAN_VC, &tm, &r->check);
	if (err)
		goto out;
	r->model_latency = r->check.latency;
	r->has_paper = dcf_closed_form(sc.scheme, sc.side, &tm,
				       &r->paper_latency);
	r->nsteps = min_t(u32, sc.nsteps, DCF_REPORT_STEPS);
	r->nuni = sc.nuni;

	err = -ENOMEM;
	s.k = t->nnodes - 1;
	s.len = r->len;
	s.chain = calloc(t->nnodes, sizeof(u32));
	s.cpu_free = calloc(t->nnodes, sizeof(u64));
	s.sends = calloc(t->nnodes, sizeof(*s.sends));
	s.first = calloc(t->nnodes + 1, sizeof(u32));
	s.order = calloc(sc.nuni, sizeof(u32));
	s.port_free = calloc((size_t)t->nnodes * DCF_NPORTS, sizeof(u64));
	s.got_node = calloc(t->nnodes, sizeof(u32));
	s.recv = calloc(sc.nuni, sizeof(u64));
	s.behind = calloc(sc.nuni, sizeof(bool));
	s.trace = calloc(sc.nuni, sizeof(*s.trace));
	links = calloc((size_t)sc.nhops + sc.nuni, sizeof(*links));
	tdst = calloc(sc.nuni, sizeof(*tdst));
	s.e = wc_engine_create(t, &cfg->params, &wc_algo_plh, &m0_ops, &s);
	if (!s.chain || !s.cpu_free || !s.sends || !s.first || !s.order ||
	    !s.port_free || !s.got_node || !s.recv || !s.behind || !s.trace ||
	    !links || !tdst || !s.e)
		goto out;
	for (v = 0; v < t->nnodes; v++)
		s.chain[v] = v;
	/* counting sort by sender; dcf_build() keeps each sender's order */
	for (i = 0; i < sc.nuni; i++)
		s.first[sc.uni[i].src + 1]++;
	for (v = 0; v < t->nnodes; v++)
		s.first[v + 1] += s.first[v];
	for (i = 0; i < sc.nuni; i++)
		s.order[s.first[sc.uni[i].src] + sc.uni[i].seq - 1] = i;
	for (i = 0; i < sc.nuni; i++) {
		const struct dcf_unicast *u = &sc.uni[i];

		/* one spare link entry shows a route longer than scheduled */
		s.trace[i].links = &links[u->hop0 + i];
		s.trace[i].max_links = u->nhops + 1;
		s.trace[i].dsts = &tdst[i];
		s.trace[i].max_dsts = 1;
	}
	err = m0_one(&s, cfg->bcast_src);
	if (err)
		goto out;
	r->latency = s.last;
	r->deadlocks = s.deadlocks;
	r->route_errors = s.route_errors;
	if (s.deadlocks || s.route_errors)
		wc_engine_flush(s.e);
	for (v = 0; v < t->nnodes; v++) {
		if (v != cfg->bcast_src && s.got_node[v])
			r->reached++;
		if (s.got_node[v] > (v != cfg->bcast_src))
			r->duplicates += s.got_node[v] -
					 (v != cfg->bcast_src);
	}
	for (i = 0; i < sc.nuni; i++) {
		if (!bcast_route_ok(&sc, &sc.uni[i], &s.trace[i],
				    cfg->params.vcs / 2))
			r->route_mismatch++;
		bcast_tally(r, sc.uni[i].step, s.trace[i].blocked,
			    s.behind[i], s.recv[i]);
	}
	err = 0;
out:
	wc_engine_destroy(s.e);
	free(s.chain);
	free(s.cpu_free);
	free(s.sends);
	free(s.first);
	free(s.order);
	free(s.port_free);
	free(s.got_node);
	free(s.recv);
	free(s.behind);
	free(s.trace);
	free(links);
	free(tdst);
	dcf_free(&sc);
	return err;
}

void sim_print_bcast(FILE *f, const struct sim_config *cfg,
		     const struct sim_bcast *r)
{
	u32 i;

	fprintf(f, "bcast scheme=%s side=%u src=%u len=%u data_flits=%u ts=%u tr=%u relay=%s latency=%llu model_latency=%llu paper_latency=",
		dcf_scheme_name(cfg->bcast - 1), cfg->topo.dims[0],
		cfg->bcast_src, r->len, sim_msg_flits(cfg), cfg->send_ovh,
		cfg->recv_ovh, cfg->bcast_queue ? "queue" : "port",
		(unsigned long long)r->latency,
		(unsigned long long)r->model_latency);
	if (r->has_paper)
		fprintf(f, "%llu", (unsigned long long)r->paper_latency);
	else
		fputs("-", f);
	fprintf(f, " steps=%u unicasts=%u reached=%u duplicates=%u route_mismatch=%u blocked_worms=%u blocked_cycles=%llu own_port_worms=%u own_port_cycles=%llu own_port_max=%llu thm1_pairs=%llu timed_pairs=%llu stepwise_pairs=%llu port_clashes=%u deadlocks=%llu route_errors=%llu\n",
		r->nsteps, r->nuni, r->reached, r->duplicates,
		r->route_mismatch, r->blocked_worms,
		(unsigned long long)r->blocked_cycles, r->own_port_worms,
		(unsigned long long)r->own_port_cycles,
		(unsigned long long)r->own_port_max,
		(unsigned long long)r->check.contending_pairs,
		(unsigned long long)r->check.timed_pairs,
		(unsigned long long)r->check.stepwise_pairs,
		r->check.port_clashes,
		(unsigned long long)r->deadlocks,
		(unsigned long long)r->route_errors);
	for (i = 0; i < r->nsteps; i++)
		fprintf(f, "bcast-step step=%u unicasts=%u blocked_worms=%u blocked_cycles=%llu own_port_worms=%u own_port_cycles=%llu last=%llu thm1_pairs=%llu timed_pairs=%llu\n",
			i + 1, r->step[i].unicasts, r->step[i].blocked_worms,
			(unsigned long long)r->step[i].blocked_cycles,
			r->step[i].own_port_worms,
			(unsigned long long)r->step[i].own_port_cycles,
			(unsigned long long)r->step[i].last,
			(unsigned long long)r->check.step_contending[i],
			(unsigned long long)r->check.step_timed[i]);
}
