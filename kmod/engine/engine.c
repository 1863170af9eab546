// SPDX-License-Identifier: GPL-2.0
/*
 * The flit-level wormhole engine; the model is described in engine.h and
 * Documentation/engine.rst.
 *
 * Representation.  Every channel (network virtual channel, injection
 * channel, consumption channel) is a struct wc_chan.  A worm is the tree of
 * channels it holds, its injection and network channels kept in creation
 * order on a list: a channel is always created after its upstream channel,
 * so walking the list backwards visits downstream channels first.  That
 * order lets a flit leave a buffer and the flit behind it take its place
 * in the same cycle, which is what makes a 1-flit buffer carry one flit
 * per cycle.  A consumption channel buffers nothing and has nothing to
 * route, so it is not on the list, which each cycle walks: only on its
 * upstream channel's list of branches, until it has all its flits (and is
 * released).  In lock step not even there: it never refuses a flit, so it
 * takes each flit of its upstream channel as that one's buffer lets it
 * go, and it is only counted (@cons, cons_sent()) until the tail comes.
 *
 * A channel counts flits rather than storing them: @sent flits entered it,
 * @left flits left its downstream buffer, and the ring of arrival times
 * says when each buffered flit may move on.  Its flit i is flit i + @off of
 * its upstream channel (header flits may be dropped at a split).
 */
#include "engine.h"

enum chan_kind { CHAN_NET, CHAN_INJ, CHAN_CONS };

#define NO_CHAN U32_MAX

struct wc_worm;

struct wc_chan {
	struct wc_worm *worm;		/* owner, NULL when free */
	struct wc_chan *prev, *next;	/* owner's channels, creation order */
	/*
	 * Branches at the downstream router, as channel indices; NO_CHAN
	 * ends.  A consumption channel has none: there @up is the channel
	 * it consumes from.
	 */
	union {
		u32 child;
		u32 up;
	};
	u32 sibling;
	u32 cons;			/* lock step: its consumption branch */
	u32 total;			/* flits that will pass through */
	u32 sent;			/* flits that entered */
	u32 left;			/* flits that left the downstream buffer */
	u32 off;			/* upstream flit index of our flit 0 */
	u32 node;			/* downstream router */
	u32 phys;			/* physical channel index, or U32_MAX */
	u32 ring;			/* its first entry in the engine's ring */
	u16 hops;			/* links from the source to @node */
	u16 hdr_off;			/* header window in the worm's words */
	u16 hdr_len;
	u16 hdr_flits;
	u8 kind;			/* enum chan_kind */
	u8 vc;
	u8 in_port;			/* port of @node it arrives on */
	bool routed;			/* header routing done at @node */
	bool decided;			/* @decision holds a blocked header's route */
	struct wc_route_out decision;	/* single-output decision, kept while blocked */
};

struct wc_worm {
	struct wc_msg *msg;
	union {
		struct wc_worm *next_active;	/* while live */
		struct wc_worm *next_free;	/* in the pool */
	};
	struct wc_worm *prev_active;
	struct wc_chan *first, *last;
	u32 id;				/* creation order, for the dump */
	u32 seq;			/* worm of its message, from 0 */
	u64 t_inject;			/* cycle it took its injection channel */
	u32 nwords;
	u32 *words;			/* inline_words, or the message's hdr */
	u32 inline_words[WC_WORM_MAX_WORDS];
};

struct wc_engine {
	struct wc_topo topo;
	struct wc_engine_params p;
	const struct wc_algo *algo;
	const struct wc_engine_ops *ops;
	void *priv;
	const void *tables;		/* valid during wc_engine_run() */

	u64 now;
	u32 next_worm_id;
	u64 last_progress;
	bool stalled;			/* watchdog fired, no progress since */
	bool yield;			/* wc_engine_yield(): end this run */

	u32 nnodes, nports, nphys;
	u32 *nbr;			/* nnodes * nports neighbours */
	u32 nchan;
	u32 ring_mask;			/* ring entries per channel, less one */
	struct wc_chan *chan;		/* net VCs, then injection, then consumption */
	u32 inj_base, cons_base;
	u32 *ring;			/* nchan * (ring_mask + 1) arrival cycles */
	u64 *phys_last;			/* last cycle a flit crossed, per physical channel */
	/*
	 * Cycles with a flit, per physical channel, of the channels released
	 * so far: a held channel's share is its @sent, added when it is
	 * released (chan_release()), as are stats.flit_hops and a consumption
	 * channel's flits_consumed; the readers add the held channels'.
	 */
	u64 *phys_busy;
	u64 *phys_blocked;		/* header-cycles refused, per physical channel */
	u8 *link_down;			/* per physical channel: its link failed */
	u8 *node_down;			/* per node: failed */
	u32 nlink_faults, nnode_faults;

	struct wc_worm *worms;
	struct wc_worm *free_worms;
	struct wc_worm *active_head, *active_tail;
	u64 nactive;

	/* per-node message queues and the list of nodes with a backlog */
	struct wc_msg **q_head, **q_tail;
	u32 *backlog;
	u32 *src_next;			/* singly linked list of sources, U32_MAX ends */
	bool *src_listed;
	u32 src_head, src_tail;

	struct wc_node_stats *nstats;
	struct wc_engine_stats stats;
	u32 dst_words;			/* u32 words in a message's dstmap */
};

/* ------------------------------------------------------------ parameters */

static u32 star_diameter(u32 n)
{
	return (3 * (n - 1)) / 2;
}

void wc_engine_params_default(struct wc_engine_params *p,
			      const struct wc_topo *t)
{
	memset(p, 0, sizeof(*p));
	p->flit_bytes = 32;
	p->buf_flits = 1;
	p->vcs = 1;
	if (t && t->kind == WC_TOPO_TORUS)
		p->vcs = 2;
	if (t && t->kind == WC_TOPO_STAR)
		p->vcs = star_diameter(t->dims[0]) ? star_diameter(t->dims[0]) : 1;
	p->inj_channels = 1;
	p->cons_channels = 2;
	p->router_delay = 1;
	p->link_delay = 1;
	p->startup = 0;
	p->replication = WC_REPL_LOCKSTEP;
	p->watchdog = 10000;
}

static int bad(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return -EINVAL;
}

int wc_engine_params_check(const struct wc_engine_params *p,
			   const struct wc_topo *t, const char **why)
{
	if (p->flit_bytes < 1 || p->flit_bytes > WC_MAX_FLIT_BYTES)
		return bad(why, "flit_bytes must be 1 to 4096");
	if (p->buf_flits < 1 || p->buf_flits > WC_MAX_BUF_FLITS)
		return bad(why, "buf_flits must be 1 to 64");
	if (p->vcs < 1 || p->vcs > WC_MAX_VCS)
		return bad(why, "vcs must be 1 to 16");
	if (p->inj_channels < 1 || p->inj_channels > WC_MAX_INJ)
		return bad(why, "injection channels must be 1 to 8");
	if (p->cons_channels < 1 || p->cons_channels > WC_MAX_CONS)
		return bad(why, "consumption channels must be 1 to 8");
	if (p->router_delay > WC_MAX_DELAY || p->link_delay > WC_MAX_DELAY ||
	    p->startup > WC_MAX_DELAY)
		return bad(why, "delays and startup must be at most 1000 cycles");
	if (p->link_delay < 1)
		return bad(why, "link_delay must be at least 1 cycle");
	if (p->replication != WC_REPL_LOCKSTEP &&
	    p->replication != WC_REPL_ASYNC)
		return bad(why, "replication must be lockstep or async");
	if (p->watchdog < 16 ||
	    p->watchdog <= p->startup + p->router_delay + p->link_delay)
		return bad(why,
			   "watchdog must be >= 16 and > startup + router_delay + link_delay");
	(void)t;
	return 0;
}

/* ------------------------------------------------------------ messages */

size_t wc_msg_size(const struct wc_engine *e)
{
	return sizeof(struct wc_msg) + e->dst_words * sizeof(u32);
}

void wc_msg_init(const struct wc_engine *e, struct wc_msg *m, u32 src,
		 u32 bytes, void *cookie)
{
	memset(m, 0, wc_msg_size(e));
	m->src = src;
	m->bytes = bytes;
	m->cookie = cookie;
}

void wc_msg_add_dst(const struct wc_engine *e, struct wc_msg *m, u32 node)
{
	if (node >= e->nnodes || wc_msg_has_dst(e, m, node))
		return;
	m->dstmap[node / 32] |= 1u << (node % 32);
	m->ndsts++;
}

bool wc_msg_has_dst(const struct wc_engine *e, const struct wc_msg *m,
		    u32 node)
{
	return node < e->nnodes && (m->dstmap[node / 32] >> (node % 32)) & 1;
}

/* ------------------------------------------------------------ setup */

struct wc_engine *wc_engine_create(const struct wc_topo *topo,
				   const struct wc_engine_params *params,
				   const struct wc_algo *algo,
				   const struct wc_engine_ops *ops, void *priv)
{
	struct wc_engine *e;
	u32 n, port, vc, i, nnet, slots;

	if (wc_engine_params_check(params, topo, NULL) || !algo || !ops)
		return NULL;
	e = wc_zalloc(sizeof(*e));
	if (!e)
		return NULL;
	e->topo = *topo;
	e->p = *params;
	e->algo = algo;
	e->ops = ops;
	e->priv = priv;
	e->nnodes = topo->nnodes;
	e->nports = topo->nports;
	e->nphys = e->nnodes * e->nports;
	e->dst_words = DIV_ROUND_UP(e->nnodes, 32);
	nnet = e->nphys * e->p.vcs;
	e->inj_base = nnet;
	e->cons_base = nnet + e->nnodes * e->p.inj_channels;
	/*
	 * A channel buffers at most buf_flits flits, consecutive ones: their
	 * indices differ modulo any power of 2 not below buf_flits, so its
	 * ring has that many entries and a flit's entry is a mask away.
	 */
	for (slots = 1; slots < e->p.buf_flits; slots <<= 1)
		;
	e->ring_mask = slots - 1;
	e->nchan = e->cons_base + e->nnodes * e->p.cons_channels;

	e->nbr = wc_calloc(e->nphys, sizeof(*e->nbr));
	e->chan = wc_calloc(e->nchan, sizeof(*e->chan));
	e->ring = wc_calloc((size_t)e->nchan * slots, sizeof(*e->ring));
	e->phys_last = wc_calloc(e->nphys, sizeof(*e->phys_last));
	e->phys_busy = wc_calloc(e->nphys, sizeof(*e->phys_busy));
	e->phys_blocked = wc_calloc(e->nphys, sizeof(*e->phys_blocked));
	e->link_down = wc_calloc(e->nphys, sizeof(*e->link_down));
	e->node_down = wc_calloc(e->nnodes, sizeof(*e->node_down));
	/*
	 * Every live worm holds an injection or network channel (a
	 * consumption channel is released no later than the channel that
	 * feeds it), so this pool cannot run dry.
	 */
	e->worms = wc_calloc(e->cons_base, sizeof(*e->worms));
	e->q_head = wc_calloc(e->nnodes, sizeof(*e->q_head));
	e->q_tail = wc_calloc(e->nnodes, sizeof(*e->q_tail));
	e->backlog = wc_calloc(e->nnodes, sizeof(*e->backlog));
	e->src_next = wc_calloc(e->nnodes, sizeof(*e->src_next));
	e->src_listed = wc_calloc(e->nnodes, sizeof(*e->src_listed));
	e->nstats = wc_calloc(e->nnodes, sizeof(*e->nstats));
	if (!e->nbr || !e->chan || !e->ring || !e->phys_last ||
	    !e->phys_busy || !e->phys_blocked || !e->link_down ||
	    !e->node_down || !e->worms || !e->q_head || !e->q_tail ||
	    !e->backlog || !e->src_next || !e->src_listed || !e->nstats) {
		wc_engine_destroy(e);
		return NULL;
	}

	for (n = 0; n < e->nnodes; n++) {
		for (port = 0; port < e->nports; port++) {
			u32 p = n * e->nports + port;

			e->nbr[p] = wc_topo_neighbor(topo, n, port);
			e->phys_last[p] = U64_MAX;
			for (vc = 0; vc < e->p.vcs; vc++) {
				struct wc_chan *c = &e->chan[p * e->p.vcs + vc];

				c->kind = CHAN_NET;
				c->node = e->nbr[p];
				c->phys = p;
				c->vc = (u8)vc;
				c->in_port = (u8)wc_topo_reverse_port(topo, n, port);
			}
		}
		for (i = 0; i < e->p.inj_channels; i++) {
			struct wc_chan *c = &e->chan[e->inj_base +
						     n * e->p.inj_channels + i];

			c->kind = CHAN_INJ;
			c->node = n;
			c->phys = U32_MAX;
			c->in_port = WC_PORT_INJ;
		}
		for (i = 0; i < e->p.cons_channels; i++) {
			struct wc_chan *c = &e->chan[e->cons_base +
						     n * e->p.cons_channels + i];

			c->kind = CHAN_CONS;
			c->node = n;
			c->phys = U32_MAX;
		}
		e->src_next[n] = U32_MAX;
	}
	for (i = 0; i < e->nchan; i++)
		e->chan[i].ring = i * slots;
	for (i = 0; i < e->cons_base; i++) {
		e->worms[i].next_free = e->free_worms;
		e->free_worms = &e->worms[i];
	}
	e->src_head = U32_MAX;
	e->src_tail = U32_MAX;
	return e;
}

void wc_engine_destroy(struct wc_engine *e)
{
	if (!e)
		return;
	wc_free(e->nbr);
	wc_free(e->chan);
	wc_free(e->ring);
	wc_free(e->phys_last);
	wc_free(e->phys_busy);
	wc_free(e->phys_blocked);
	wc_free(e->link_down);
	wc_free(e->node_down);
	wc_free(e->worms);
	wc_free(e->q_head);
	wc_free(e->q_tail);
	wc_free(e->backlog);
	wc_free(e->src_next);
	wc_free(e->src_listed);
	wc_free(e->nstats);
	wc_free(e);
}

/* ------------------------------------------------------------ queues */

static void src_list_add(struct wc_engine *e, u32 node)
{
	if (e->src_listed[node])
		return;
	e->src_listed[node] = true;
	e->src_next[node] = U32_MAX;
	if (e->src_tail == U32_MAX)
		e->src_head = node;
	else
		e->src_next[e->src_tail] = node;
	e->src_tail = node;
}

void wc_engine_submit_at(struct wc_engine *e, struct wc_msg *m, u64 due)
{
	u32 s = m->src;

	m->next = NULL;
	m->t_submit = due > e->now ? due : e->now;
	m->next_dst = 0;
	m->worms_live = 0;
	m->ndelivered = 0;
	m->nlinks = 0;
	m->fault_lost = 0;
	m->faulted = false;
	m->fault_port = 0;
	m->fault_cuts = 0;
	m->fault_at = WC_NO_NODE;
	m->planned = false;
	m->queued = true;
	if (e->q_tail[s])
		e->q_tail[s]->next = m;
	else
		e->q_head[s] = m;
	e->q_tail[s] = m;
	e->backlog[s]++;
	src_list_add(e, s);
}

void wc_engine_submit(struct wc_engine *e, struct wc_msg *m)
{
	wc_engine_submit_at(e, m, e->now);
}

/* May the head message of @s start worms this cycle (its time has come)? */
static bool q_ready(const struct wc_engine *e, u32 s)
{
	return e->q_head[s] && e->q_head[s]->t_submit <= e->now;
}

/*
 * The first cycle at which a queued message may start, U64_MAX if none
 * is queued: with no worm in flight, nothing happens before it.
 */
static u64 next_due(const struct wc_engine *e)
{
	u64 t = U64_MAX;
	u32 s;

	for (s = e->src_head; s != U32_MAX; s = e->src_next[s])
		if (e->q_head[s] && e->q_head[s]->t_submit < t)
			t = e->q_head[s]->t_submit;
	return t;
}

u32 wc_engine_backlog(const struct wc_engine *e, u32 node)
{
	return node < e->nnodes ? e->backlog[node] : 0;
}

bool wc_engine_busy(const struct wc_engine *e)
{
	return e->nactive || e->src_head != U32_MAX;
}

u64 wc_engine_now(const struct wc_engine *e)
{
	return e->now;
}

int wc_engine_set_algo(struct wc_engine *e, const struct wc_algo *algo,
		       const char **why)
{
	int err;

	if (wc_engine_busy(e))
		return -EBUSY;
	if (algo->check) {
		err = algo->check(&e->topo, &e->p, why);
		if (err)
			return err;
	}
	e->algo = algo;
	return 0;
}

int wc_engine_set_watchdog(struct wc_engine *e, u32 cycles, const char **why)
{
	struct wc_engine_params p = e->p;
	int err;

	p.watchdog = cycles;
	err = wc_engine_params_check(&p, &e->topo, why);
	if (!err)
		e->p.watchdog = cycles;
	return err;
}

static void msg_pop(struct wc_engine *e, u32 s)
{
	struct wc_msg *m = e->q_head[s];

	e->q_head[s] = m->next;
	if (!e->q_head[s])
		e->q_tail[s] = NULL;
	m->next = NULL;
	m->queued = false;
	e->backlog[s]--;
}

static void msg_maybe_done(struct wc_engine *e, struct wc_msg *m)
{
	if (!m->planned || m->worms_live || m->queued)
		return;
	if (m->faulted) {
		m->fault_lost = m->ndsts - min_t(u32, m->ndelivered, m->ndsts);
		e->stats.fault_drops += m->fault_lost;
	}
	e->ops->msg_done(e->priv, m);
}

/* ------------------------------------------------------------ worms */

/* @c becomes @w's, on its list unless a consumption channel. */
static void chan_append(struct wc_worm *w, struct wc_chan *c)
{
	c->worm = w;
	if (c->kind != CHAN_CONS) {
		c->next = NULL;
		c->prev = w->last;
		if (w->last)
			w->last->next = c;
		else
			w->first = c;
		w->last = c;
	}
	c->child = NO_CHAN;
	c->sibling = NO_CHAN;
	c->cons = NO_CHAN;
	c->sent = 0;
	c->left = 0;
	c->routed = false;
	c->decided = false;
}

/*
 * Flits the consumption channel @k took so far: in lock step, counted from
 * what left the buffer of its upstream channel, which is held as long as
 * @k is (its release included).
 */
static u32 cons_sent(const struct wc_engine *e, const struct wc_chan *k)
{
	u32 left;

	if (e->p.replication != WC_REPL_LOCKSTEP)
		return k->sent;
	left = e->chan[k->up].left;
	return left > k->off ? left - k->off : 0;
}

static void chan_release(struct wc_engine *e, struct wc_chan *c)
{
	struct wc_worm *w = c->worm;

	/* The flits it carried, counted per flit while it was held. */
	if (c->kind == CHAN_NET) {
		e->phys_busy[c->phys] += c->sent;
		e->stats.flit_hops += c->sent;
	} else if (c->kind == CHAN_CONS) {
		e->nstats[c->node].flits_consumed += cons_sent(e, c);
		goto unlinked;
	}
	if (c->prev)
		c->prev->next = c->next;
	else
		w->first = c->next;
	if (c->next)
		c->next->prev = c->prev;
	else
		w->last = c->prev;
unlinked:
	c->worm = NULL;
	c->child = NO_CHAN;
	c->sibling = NO_CHAN;
}

static void worm_free(struct wc_engine *e, struct wc_worm *w)
{
	struct wc_msg *m = w->msg;

	if (w->prev_active)
		w->prev_active->next_active = w->next_active;
	else
		e->active_head = w->next_active;
	if (w->next_active)
		w->next_active->prev_active = w->prev_active;
	else
		e->active_tail = w->prev_active;
	e->nactive--;
	w->next_free = e->free_worms;
	e->free_worms = w;
	m->worms_live--;
	msg_maybe_done(e, m);
}

/*
 * Release every channel of @w and free it (route errors, flush).  A
 * consumption channel still held is a branch of a channel on the list.
 */
static void worm_abort(struct wc_engine *e, struct wc_worm *w)
{
	while (w->first) {
		struct wc_chan *c = w->first;
		u32 i, next;

		if (c->cons != NO_CHAN)
			chan_release(e, &e->chan[c->cons]);
		for (i = c->child; i != NO_CHAN; i = next) {
			struct wc_chan *k = &e->chan[i];

			next = k->sibling;
			if (k->kind == CHAN_CONS && k->worm == w)
				chan_release(e, k);
		}
		chan_release(e, c);
	}
	worm_free(e, w);
}

static u32 data_flits(const struct wc_engine *e, u32 bytes)
{
	return DIV_ROUND_UP(bytes, e->p.flit_bytes);
}

/*
 * Start the next worm of the head message of @s on injection channel @c.
 * Returns 1 if a worm started, 0 if the message had no worm left.
 */
static int worm_start(struct wc_engine *e, u32 s, struct wc_chan *c)
{
	struct wc_msg *m = e->q_head[s];
	struct wc_route_ctx ctx = {
		.topo = &e->topo, .params = &e->p, .tables = e->tables,
		.node = s, .src = s, .in_port = WC_PORT_INJ,
	};
	struct wc_hdr hdr = { 0 };
	struct wc_worm *w;
	u32 max_words;

	/* The pool cannot run dry: see wc_engine_create(). */
	w = e->free_worms;
	w->words = m->hdr_max ? m->hdr : w->inline_words;
	max_words = m->hdr_max ? m->hdr_max : WC_WORM_MAX_WORDS;
	if (!e->algo->next_worm(&ctx, m, w->words, max_words, &hdr)) {
		m->planned = true;
		msg_pop(e, s);
		msg_maybe_done(e, m);
		return 0;
	}
	e->free_worms = w->next_free;
	w->msg = m;
	w->id = e->next_worm_id++;
	w->seq = m->trace ? m->trace->nworms++ : 0;
	w->t_inject = e->now;
	w->first = NULL;
	w->last = NULL;
	w->nwords = min_t(u32, hdr.nwords, max_words);
	if (hdr.words != w->words)
		memcpy(w->words, hdr.words, w->nwords * sizeof(u32));
	w->prev_active = e->active_tail;
	w->next_active = NULL;
	if (e->active_tail)
		e->active_tail->next_active = w;
	else
		e->active_head = w;
	e->active_tail = w;
	e->nactive++;
	m->worms_live++;

	chan_append(w, c);
	c->hdr_off = 0;
	c->hdr_len = (u16)w->nwords;
	c->hdr_flits = (u16)(hdr.nflits ? hdr.nflits : 1);
	c->total = c->hdr_flits + data_flits(e, m->bytes) + 1;
	c->off = 0;
	c->hops = 0;
	/* The processor may push the header after the startup cost. */
	c->sent = 0;
	e->ring[c->ring] = (u32)(e->now + e->p.startup);
	e->nstats[s].worms_injected++;
	e->nstats[s].flits_injected += c->total;
	if (e->ops->injected)
		e->ops->injected(e->priv, m, s, e->now);
	return 1;
}

static void start_worms(struct wc_engine *e)
{
	u32 s = e->src_head, prev = U32_MAX;

	while (s != U32_MAX) {
		u32 next = e->src_next[s], i;

		for (i = 0; i < e->p.inj_channels && q_ready(e, s); i++) {
			struct wc_chan *c = &e->chan[e->inj_base +
						     s * e->p.inj_channels + i];

			if (c->worm)
				continue;
			while (q_ready(e, s) && !worm_start(e, s, c))
				;
		}
		if (!e->q_head[s]) {
			/* unlink s */
			e->src_listed[s] = false;
			if (prev == U32_MAX)
				e->src_head = next;
			else
				e->src_next[prev] = next;
			if (e->src_tail == s)
				e->src_tail = prev;
		} else {
			prev = s;
		}
		s = next;
	}
}

/* ------------------------------------------------------------ flits */

/*
 * What flit moves and routing read of the engine, loaded once per cycle
 * into a local the compiler keeps in registers: every move stores
 * through u32 and u64 pointers that may alias these fields (the kernel
 * builds with -fno-strict-aliasing), so read from @e they would be read
 * again after each store.  In a guest emulated without KVM, every memory
 * access costs.  Nothing here changes during a cycle.
 */
struct flit_ctx {
	struct wc_engine *e;
	struct wc_chan *chan;
	u32 *ring;
	u64 *phys_last;
	u64 now;
	u32 buf_flits;
	u32 ring_mask;
	u32 arrival;			/* ring entry of a flit pushed now */
	bool lockstep;
};

static __always_inline void flit_ctx_init(struct flit_ctx *x,
					  struct wc_engine *e)
{
	x->e = e;
	x->chan = e->chan;
	x->ring = e->ring;
	x->phys_last = e->phys_last;
	x->now = e->now;
	x->buf_flits = e->p.buf_flits;
	x->ring_mask = e->ring_mask;
	x->arrival = (u32)(e->now + e->p.link_delay);
	x->lockstep = e->p.replication == WC_REPL_LOCKSTEP;
}

/* Ring entry of flit @i of @c (wc_engine_create()). */
static __always_inline u32 *ring_slot(const struct flit_ctx *x,
				      const struct wc_chan *c, u32 i)
{
	return &x->ring[c->ring + (i & x->ring_mask)];
}

/* Has flit @i of @c (already sent) reached its downstream buffer? */
static __always_inline bool flit_ready(const struct flit_ctx *x,
				       const struct wc_chan *c, u32 i)
{
	return (s32)((u32)x->now - *ring_slot(x, c, i)) >= 0;
}

/* Can @c take one more flit this cycle? */
static __always_inline bool chan_can_take(const struct flit_ctx *x,
					  const struct wc_chan *c)
{
	if (c->kind == CHAN_CONS)
		return true;
	if (c->sent - c->left >= x->buf_flits)
		return false;
	return c->phys == U32_MAX || x->phys_last[c->phys] != x->now;
}

/* Record consumption at @c->node in the message's trace. */
static void trace_dst(struct wc_engine *e, struct wc_trace *t,
		      const struct wc_chan *c)
{
	struct wc_trace_dst *d;

	if (t->ndsts >= t->max_dsts) {
		t->lost++;
		return;
	}
	d = &t->dsts[t->ndsts++];
	d->node = c->node;
	d->worm = c->worm->seq;
	d->inject = c->worm->t_inject;
	d->consume = e->now;
}

/* Record the network channel @k that the worm of @c reserved. */
static void trace_link(struct wc_engine *e, struct wc_trace *t,
		       const struct wc_chan *k)
{
	struct wc_trace_link *l;

	if (t->nlinks >= t->max_links) {
		t->lost++;
		return;
	}
	l = &t->links[t->nlinks++];
	l->node = (u16)(k->phys / e->nports);
	l->port = (u8)(k->phys % e->nports);
	l->vc = k->vc;
	l->worm = k->worm->seq;
}

static void deliver(struct wc_engine *e, struct wc_chan *c)
{
	struct wc_msg *m = c->worm->msg;
	u64 lat = e->now - m->t_submit;

	if (m->trace)
		trace_dst(e, m->trace, c);
	if (wc_msg_has_dst(e, m, c->node))
		m->ndelivered++;
	e->nstats[c->node].worms_consumed++;
	e->stats.worms_done++;
	e->stats.latency_sum += lat;
	if (lat > e->stats.latency_max)
		e->stats.latency_max = lat;
	e->stats.hops_sum += c->hops;
	e->ops->deliver(e->priv, m, c->node, lat);
}

/*
 * Put the next flit into @c (its upstream made sure it may).  This and
 * chan_drain() run once per flit move: inlined, about a fifth less CPU
 * per cycle than as calls.  The per-flit counters (busy cycles, flit hops,
 * flits consumed) are the channel's @sent, added up when it is released;
 * the caller records the progress for the watchdog.
 */
static __always_inline void chan_push(const struct flit_ctx *x,
				      struct wc_chan *c)
{
	u32 sent = c->sent, phys;

	switch (c->kind) {
	case CHAN_NET:
		phys = c->phys;
		c->sent = sent + 1;
		*ring_slot(x, c, sent) = x->arrival;
		x->phys_last[phys] = x->now;
		break;
	case CHAN_INJ:
		c->sent = sent + 1;
		*ring_slot(x, c, sent) = (u32)x->now;
		break;
	case CHAN_CONS:
		c->sent = sent + 1;
		c->left = sent + 1;
		if (sent + 1 == c->total) {
			deliver(x->e, c);
			chan_release(x->e, c);
		}
		break;
	}
}

/* Does branch @k need upstream flit @f? */
static inline bool branch_needs(const struct wc_chan *k, u32 f)
{
	return f >= k->off && f - k->off == k->sent && k->sent < k->total;
}

/*
 * A branch that has all its flits no longer needs its upstream channel:
 * unlink it, since it may be released (and reused) before the upstream is.
 * Returns where the walk over the branch list goes on.
 */
static inline u32 *branch_unlink_done(u32 *pk, struct wc_chan *k, u32 next)
{
	if (k->sent == k->total) {
		*pk = next;
		return pk;
	}
	return &k->sibling;
}

/* chan_drain() keeps one bit per branch of a channel in a u32. */
static_assert(WC_MAX_OUTPUTS <= 32, "at most 32 branches per channel");

static __always_inline struct wc_chan *branch(const struct flit_ctx *x, u32 i)
{
	return i == NO_CHAN ? NULL : &x->chan[i];
}

/*
 * In lock step the tail just left the buffer of @c: its consumption branch,
 * which took every flit with it, has the whole worm.
 */
static __always_inline void chan_consume(const struct flit_ctx *x,
					 struct wc_chan *c)
{
	struct wc_chan *k;

	if (c->cons == NO_CHAN)
		return;
	k = &x->chan[c->cons];
	c->cons = NO_CHAN;
	deliver(x->e, k);
	chan_release(x->e, k);
}

/*
 * Lock step, flit @f of @c ready, and at most one branch, channel @kid
 * (NO_CHAN for none): the common case, with each field read once.  In
 * lock step a branch is a network channel (consumption is @c->cons), so
 * this is branch_needs(), chan_can_take() and chan_push() for that kind.
 */
static __always_inline bool drain_one(const struct flit_ctx *x,
				      struct wc_chan *c, u32 kid, u32 f)
{
	if (kid != NO_CHAN) {
		struct wc_chan *k = &x->chan[kid];
		u32 sent = k->sent, total = k->total, off = k->off;

		if (f >= off && f - off == sent && sent < total) {
			u32 phys = k->phys;

			if (sent - k->left >= x->buf_flits ||
			    x->phys_last[phys] == x->now)
				return false;
			*ring_slot(x, k, sent) = x->arrival;
			x->phys_last[phys] = x->now;
			k->sent = ++sent;
		}
		if (sent == total)
			c->child = NO_CHAN;
	}
	c->left = f + 1;
	return true;
}

/*
 * Move flits from the downstream buffer of @c into its branches: one flit
 * per cycle per branch; in lock step a flit moves only when every branch
 * that needs it can take it.  Returns whether anything moved.
 */
static __always_inline bool chan_drain(const struct flit_ctx *x,
				       struct wc_chan *c)
{
	struct wc_chan *k;
	u32 f = c->left, min_next = U32_MAX, next, *pk;
	bool moved = false;

	if (x->lockstep) {
		u32 need = 0, bit, kid;

		if (f >= c->sent || !flit_ready(x, c, f))
			return false;
		kid = c->child;
		if (kid == NO_CHAN || x->chan[kid].sibling == NO_CHAN)
			return drain_one(x, c, kid, f);
		k = &x->chan[kid];
		/*
		 * Bit i of @need: branch i needs the flit.  At most
		 * WC_MAX_OUTPUTS branches (one routing decision), and a push
		 * changes only its own branch, so the second walk, over the
		 * same list, need not ask again.
		 */
		for (bit = 1; k; k = branch(x, k->sibling), bit <<= 1) {
			if (!branch_needs(k, f))
				continue;
			need |= bit;
			if (!chan_can_take(x, k))
				return false;
		}
		for (pk = &c->child; (k = branch(x, *pk)); need >>= 1) {
			next = k->sibling;
			if (need & 1)
				chan_push(x, k);
			pk = branch_unlink_done(pk, k, next);
		}
		c->left = f + 1;
		return true;
	}
	/* Asynchronous: every branch reads at its own pace. */
	for (pk = &c->child; (k = branch(x, *pk)); ) {
		u32 want = k->off + k->sent;

		next = k->sibling;
		if (k->sent < k->total && want < c->sent &&
		    flit_ready(x, c, want) && chan_can_take(x, k)) {
			chan_push(x, k);
			moved = true;
		}
		pk = branch_unlink_done(pk, k, next);
	}
	/* The buffer frees what every branch has taken. */
	for (k = branch(x, c->child); k; k = branch(x, k->sibling)) {
		next = k->sent < k->total ? k->off + k->sent : c->total;
		if (next < min_next)
			min_next = next;
	}
	if (min_next == U32_MAX)
		min_next = c->total;
	/* Flits no branch needs (dropped headers) leave when ready. */
	while (c->left < min_next && c->left < c->sent &&
	       flit_ready(x, c, c->left)) {
		c->left++;
		moved = true;
	}
	return moved;
}

/* ------------------------------------------------------------ routing */

static int route_check(const struct wc_engine *e, const struct wc_chan *c,
		       const struct wc_route_req *req)
{
	u32 i, j, cons = 0;
	u32 all_vcs = (1u << e->p.vcs) - 1;

	if (req->nout < 1 || req->nout > WC_MAX_OUTPUTS)
		return -EINVAL;
	for (i = 0; i < req->nout; i++) {
		const struct wc_route_out *o = &req->out[i];

		if (o->hdr_skip_words + o->hdr_words > c->hdr_len ||
		    o->hdr_flits > c->hdr_flits)
			return -EINVAL;
		if (o->consume) {
			if (++cons > 1 || (o->vc_mask &&
					   !(o->vc_mask &
					     ((1u << e->p.cons_channels) - 1))))
				return -EINVAL;
			continue;
		}
		if (o->port >= e->nports ||
		    e->nbr[c->node * e->nports + o->port] == WC_NO_NODE ||
		    !(o->vc_mask & all_vcs))
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (!req->out[j].consume && req->out[j].port == o->port)
				return -EINVAL;
	}
	return 0;
}

/* A free channel for output @o at @node, or NULL. */
static struct wc_chan *find_free(struct wc_engine *e, u32 node,
				 const struct wc_route_out *o)
{
	u32 i;

	if (o->consume) {
		for (i = 0; i < e->p.cons_channels; i++) {
			struct wc_chan *k = &e->chan[e->cons_base +
						     node * e->p.cons_channels + i];
			if ((!o->vc_mask || (o->vc_mask >> i) & 1) && !k->worm)
				return k;
		}
		return NULL;
	}
	if (e->phys_last[node * e->nports + o->port] == e->now)
		return NULL;	/* the link already carries a flit this cycle */
	for (i = 0; i < e->p.vcs; i++) {
		struct wc_chan *k = &e->chan[(node * e->nports + o->port) *
					     e->p.vcs + i];
		if ((o->vc_mask >> i) & 1 && !k->worm)
			return k;
	}
	return NULL;
}

/*
 * A header at @node was refused output @first of @req this cycle: charge
 * one blocked cycle to the physical channel of every network output it
 * cannot have now (@first and any later one), since it waits for all of
 * them.  Consumption channels have no physical channel: not charged.
 */
static void blocked_on(struct wc_engine *e, u32 node,
		       const struct wc_route_req *req, u32 first)
{
	u32 i;

	for (i = first; i < req->nout; i++) {
		const struct wc_route_out *o = &req->out[i];

		if (o->consume || (i != first && find_free(e, node, o)))
			continue;
		e->phys_blocked[node * e->nports + o->port]++;
	}
}

/* Is the network channel leaving @node by @port failed? */
static inline bool port_down(const struct wc_engine *e, u32 node, u32 port)
{
	u32 p = node * e->nports + port;

	return e->link_down[p] || e->node_down[e->nbr[p]];
}

/*
 * Drop from @req the outputs a fault forbids: every output at a failed
 * router, a network output over a failed link or into a failed node.
 * Their branches are absorbed: the header's channel no longer feeds them,
 * so a decision left with no output drains into nothing, one flit per
 * cycle, like a consumption channel that delivers nothing.  Returns the
 * number of outputs dropped.
 */
static u32 fault_filter(const struct wc_engine *e, u32 node,
			struct wc_route_req *req, u8 *first)
{
	u32 i, n = 0, nout = req->nout;

	if (!e->nlink_faults && !e->nnode_faults)
		return 0;
	if (e->node_down[node]) {
		req->nout = 0;
		*first = WC_FAULT_NODE;
		return nout;
	}
	for (i = 0; i < nout; i++) {
		const struct wc_route_out *o = &req->out[i];

		if (!o->consume && port_down(e, node, o->port)) {
			if (n == i)	/* the first dropped */
				*first = e->node_down[e->nbr[node * e->nports +
							    o->port]] ?
					 WC_FAULT_NODE : o->port;
			continue;
		}
		req->out[n++] = *o;
	}
	req->nout = n;
	return nout - n;
}

/*
 * Route the header waiting in the downstream buffer of @c, reserving all
 * requested outputs or none, and send the header flit into them.
 */
static void chan_route(const struct flit_ctx *x, struct wc_chan *c)
{
	struct wc_engine *e = x->e;
	struct wc_worm *w = c->worm;
	struct wc_route_ctx ctx = {
		.topo = &e->topo, .params = &e->p, .tables = e->tables,
		.node = c->node, .src = w->msg->src,
		.in_port = c->kind == CHAN_INJ ? WC_PORT_INJ : c->in_port,
		.in_vc = c->kind == CHAN_INJ ? 0 : c->vc,
	};
	struct wc_hdr hdr = {
		.words = w->words + c->hdr_off,
		.nwords = c->hdr_len,
		.nflits = c->hdr_flits,
	};
	struct wc_chan *got[WC_MAX_OUTPUTS];
	struct wc_route_req req;
	bool net = false;
	u32 i, cut;
	u8 cut_port = 0;
	int err;

	if (c->left != 0 || c->sent == 0 || !flit_ready(x, c, 0))
		return;
	/*
	 * A blocked header keeps its decision: routing is a function of the
	 * header and the tables the worm started with, and a unicast header
	 * is the common case worth not recomputing every cycle.
	 */
	if (c->decided) {
		req.nout = 1;
		req.out[0] = c->decision;
	} else {
		memset(&req, 0, sizeof(req));
		err = e->algo->route(&ctx, &hdr, &req);
		if (!err)
			err = route_check(e, c, &req);
		if (err) {
			e->stats.route_errors++;
			if (e->ops->route_error)
				e->ops->route_error(e->priv, w->msg, c->node, err);
			worm_abort(e, w);
			return;
		}
		if (req.nout == 1) {
			c->decision = req.out[0];
			c->decided = true;
		}
	}
	cut = fault_filter(e, c->node, &req, &cut_port);
	for (i = 0; i < req.nout; i++)
		if (!req.out[i].consume)
			net = true;
	/* Only a decision that leads to a network port costs router_delay. */
	if (net && (s32)((u32)x->now - (*ring_slot(x, c, 0) +
					e->p.router_delay)) < 0)
		return;
	for (i = 0; i < req.nout; i++) {
		/* Outputs are distinct (route_check), so are their channels. */
		got[i] = find_free(e, c->node, &req.out[i]);
		if (!got[i]) {
			e->stats.blocked_cycles++;
			if (w->msg->trace)
				w->msg->trace->blocked++;
			blocked_on(e, c->node, &req, i);
			return;
		}
	}
	if (cut) {
		struct wc_msg *m = w->msg;

		if (!m->faulted) {
			m->fault_at = c->node;
			m->fault_port = cut_port;
		}
		m->faulted = true;
		m->fault_cuts = (u16)min_t(u32, m->fault_cuts + cut, U16_MAX);
		e->stats.fault_absorbed++;
	}
	if (e->algo->routed && req.nout)
		e->algo->routed(&ctx, w->words + c->hdr_off, c->hdr_len, &req);
	for (i = 0; i < req.nout; i++) {
		const struct wc_route_out *o = &req.out[i];
		struct wc_chan *k = got[i];

		chan_append(w, k);
		k->hdr_off = (u16)(c->hdr_off + o->hdr_skip_words);
		k->hdr_len = o->hdr_words;
		k->hdr_flits = o->hdr_flits;
		k->off = c->hdr_flits - o->hdr_flits;
		k->total = c->total - k->off;
		k->hops = (u16)(c->hops + (o->consume ? 0 : 1));
		if (o->consume)
			k->node = c->node;
		if (o->consume && x->lockstep) {
			/* one consumption output at most (route_check()) */
			k->up = (u32)(c - e->chan);
			c->cons = (u32)(k - e->chan);
		} else {
			k->sibling = c->child;
			c->child = (u32)(k - e->chan);
		}
		if (!o->consume)
			w->msg->nlinks++;
		if (w->msg->trace && !o->consume)
			trace_link(e, w->msg->trace, k);
	}
	c->routed = true;
	e->last_progress = e->now;
	/* The header moves on in the same cycle. */
	chan_drain(x, c);
}

/* ------------------------------------------------------------ the cycle */

/*
 * The source processor feeds its injection channel one flit per cycle,
 * from the end of the startup cost on (kept in ring slot 0 until the
 * header is pushed).  Returns whether it did.
 */
static __always_inline bool inj_feed(const struct flit_ctx *x,
				     struct wc_chan *c)
{
	if (c->sent < c->total && c->sent - c->left < x->buf_flits &&
	    flit_ready(x, c, 0)) {
		chan_push(x, c);
		return true;
	}
	return false;
}

/*
 * One cycle of @w.  Returns whether a flit moved; chan_route() records its
 * own progress.
 */
static __always_inline bool worm_step(const struct flit_ctx *x,
				      struct wc_worm *w)
{
	struct wc_engine *e = x->e;
	struct wc_chan *c, *prev;
	bool moved = false, drained;

	for (c = w->last; c; c = prev) {
		/* A channel's kind never changes. */
		u8 kind = c->kind;

		prev = c->prev;
		/*
		 * Nothing buffered: nothing to route, drain or release; only
		 * an injection channel may still be fed.  (Consumption
		 * channels are not on the list.)
		 */
		if (kind == CHAN_NET && c->sent == c->left)
			continue;
		/* A header pushed now may be routed in this very cycle. */
		if (kind == CHAN_INJ && !c->sent)
			moved |= inj_feed(x, c);
		if (!c->routed) {
			chan_route(x, c);
			if (!c->worm)
				return moved;	/* the worm was aborted */
			/* routed: its header moved on (chan_route()) */
			drained = c->routed;
		} else {
			/* Only routing may abort the worm. */
			drained = chan_drain(x, c);
			moved |= drained;
		}
		if (kind == CHAN_INJ)
			moved |= inj_feed(x, c);
		/* Only a flit that left can have been its last. */
		if (drained && c->left == c->total) {
			chan_consume(x, c);
			chan_release(e, c);
		}
	}
	if (!w->first)
		worm_free(e, w);
	return moved;
}

static void watchdog(struct wc_engine *e)
{
	if (!e->nactive || e->now - e->last_progress < e->p.watchdog) {
		if (e->now == e->last_progress)
			e->stalled = false;
		return;
	}
	if (e->stalled)
		return;
	e->stalled = true;
	e->stats.deadlocks++;
	if (e->ops->deadlock)
		e->ops->deadlock(e->priv, e->now);
}

u64 wc_engine_run(struct wc_engine *e, u64 max_cycles, const void *tables)
{
	u64 ran = 0;

	e->tables = tables;
	e->yield = false;
	while (ran < max_cycles && wc_engine_busy(e) && !e->yield) {
		struct wc_worm *w, *next;
		struct flit_ctx x;
		bool moved = false;

		if (!e->nactive) {
			u64 due = next_due(e);

			if (due > e->now) {
				/* only timed messages, none due: skip to
				 * the first, within this run's cycles
				 */
				due = min_t(u64, due - e->now, max_cycles - ran);
				e->now += due;
				ran += due;
				continue;
			}
			e->last_progress = e->now;
		}
		start_worms(e);
		flit_ctx_init(&x, e);
		for (w = e->active_head; w; w = next) {
			next = w->next_active;
			moved |= worm_step(&x, w);
		}
		/* The flits that moved this cycle were progress. */
		if (moved)
			e->last_progress = e->now;
		watchdog(e);
		e->now++;
		ran++;
	}
	e->stats.cycles += ran;
	e->tables = NULL;
	e->yield = false;
	return ran;
}

void wc_engine_yield(struct wc_engine *e)
{
	e->yield = true;
}

u32 wc_engine_flush(struct wc_engine *e)
{
	u32 n = 0, s;

	/* Queued messages first, so worm_free() reports them done. */
	for (s = 0; s < e->nnodes; s++) {
		while (e->q_head[s]) {
			struct wc_msg *m = e->q_head[s];

			m->planned = true;
			msg_pop(e, s);
			if (!m->worms_live) {
				e->ops->msg_done(e->priv, m);
				n++;
			}
		}
		e->src_listed[s] = false;
	}
	e->src_head = U32_MAX;
	e->src_tail = U32_MAX;
	while (e->active_head) {
		struct wc_msg *m = e->active_head->msg;

		if (m->worms_live == 1)
			n++;
		worm_abort(e, e->active_head);
	}
	e->stalled = false;
	return n;
}

/* ------------------------------------------------------------ faults */

static int fault_flip(u8 *flag, bool down)
{
	if (!!*flag == down)
		return down ? -EEXIST : -ENOENT;
	*flag = down;
	return 0;
}

bool wc_engine_link_failed(const struct wc_engine *e, u32 a, u32 b)
{
	u32 port;

	if (a >= e->nnodes || b >= e->nnodes)
		return false;
	for (port = 0; port < e->nports; port++)
		if (e->nbr[a * e->nports + port] == b)
			return e->link_down[a * e->nports + port];
	return false;
}

int wc_engine_fault_link(struct wc_engine *e, u32 a, u32 b, bool down,
			 const char **why)
{
	u32 port, n, x, y;

	if (a >= e->nnodes || b >= e->nnodes)
		return bad(why, "link end is not a node of the fabric");
	if (wc_topo_port_to(&e->topo, a, b) == WC_NO_PORT)
		return bad(why, "the two nodes are not adjacent");
	if (wc_engine_link_failed(e, a, b) == down)
		return down ? -EEXIST : -ENOENT;
	/* every channel between a and b, both ways (a 2-ring has two) */
	for (n = 0; n < 2; n++) {
		x = n ? b : a;
		y = n ? a : b;
		for (port = 0; port < e->nports; port++)
			if (e->nbr[x * e->nports + port] == y)
				e->link_down[x * e->nports + port] = down;
	}
	if (down)
		e->nlink_faults++;
	else
		e->nlink_faults--;
	return 0;
}

bool wc_engine_node_failed(const struct wc_engine *e, u32 n)
{
	return n < e->nnodes && e->node_down[n];
}

int wc_engine_fault_node(struct wc_engine *e, u32 n, bool down,
			 const char **why)
{
	int err;

	if (n >= e->nnodes)
		return bad(why, "node out of range");
	err = fault_flip(&e->node_down[n], down);
	if (err)
		return err;
	if (down)
		e->nnode_faults++;
	else
		e->nnode_faults--;
	return 0;
}

void wc_engine_fault_reinjected(struct wc_engine *e, struct wc_msg *m)
{
	e->stats.fault_drops -= m->fault_lost;
	e->stats.fault_reinjected++;
	m->fault_lost = 0;
}

u32 wc_engine_nfaults(const struct wc_engine *e)
{
	return e->nlink_faults + e->nnode_faults;
}

u32 wc_engine_faults(const struct wc_engine *e, u32 skip,
		     struct wc_fault *out, u32 max)
{
	u32 a, port, b, seen = 0, n = 0;

	for (a = 0; a < e->nnodes && n < max; a++) {
		for (port = 0; port < e->nports && n < max; port++) {
			b = e->nbr[a * e->nports + port];
			/* one entry per link: from its smaller end, first port */
			if (b == WC_NO_NODE || b <= a ||
			    !e->link_down[a * e->nports + port] ||
			    wc_topo_port_to(&e->topo, a, b) != port)
				continue;
			if (seen++ >= skip)
				out[n++] = (struct wc_fault){ false, a, b };
		}
	}
	for (a = 0; a < e->nnodes && n < max; a++)
		if (e->node_down[a] && seen++ >= skip)
			out[n++] = (struct wc_fault){ true, a, 0 };
	return n;
}

/* ------------------------------------------------------------ stats */

void wc_engine_get_stats(const struct wc_engine *e, struct wc_engine_stats *s)
{
	const struct wc_worm *w;
	const struct wc_chan *c;

	*s = e->stats;
	s->worms_in_flight = e->nactive;
	/* flit hops of the network channels still held (chan_release()) */
	for (w = e->active_head; w; w = w->next_active)
		for (c = w->first; c; c = c->next)
			if (c->kind == CHAN_NET)
				s->flit_hops += c->sent;
}

size_t wc_engine_mem(const struct wc_engine *e)
{
	return sizeof(*e) +
	       e->nphys * (sizeof(*e->nbr) + sizeof(*e->phys_last) +
			   sizeof(*e->phys_busy) + sizeof(*e->phys_blocked) +
			   sizeof(*e->link_down)) +
	       e->nchan * (sizeof(*e->chan) +
			   (e->ring_mask + 1) * sizeof(*e->ring)) +
	       e->cons_base * sizeof(*e->worms) +
	       e->nnodes * (sizeof(*e->q_head) + sizeof(*e->q_tail) +
			    sizeof(*e->backlog) + sizeof(*e->src_next) +
			    sizeof(*e->src_listed) + sizeof(*e->nstats) +
			    sizeof(*e->node_down));
}

void wc_engine_node_stats(const struct wc_engine *e, u32 node,
			  struct wc_node_stats *s)
{
	u32 i;

	if (node >= e->nnodes) {
		memset(s, 0, sizeof(*s));
		return;
	}
	*s = e->nstats[node];
	/* flits of the consumption channels still held (chan_release()) */
	for (i = 0; i < e->p.cons_channels; i++) {
		const struct wc_chan *k = &e->chan[e->cons_base +
						   node * e->p.cons_channels + i];

		if (k->worm)
			s->flits_consumed += cons_sent(e, k);
	}
}

u64 wc_engine_channel_busy(const struct wc_engine *e, u32 node, u32 port)
{
	u32 p, vc;
	u64 busy;

	if (node >= e->nnodes || port >= e->nports)
		return 0;
	p = node * e->nports + port;
	busy = e->phys_busy[p];
	/* flits of its virtual channels still held (chan_release()) */
	for (vc = 0; vc < e->p.vcs; vc++) {
		const struct wc_chan *k = &e->chan[p * e->p.vcs + vc];

		if (k->worm)
			busy += k->sent;
	}
	return busy;
}

u64 wc_engine_channel_blocked(const struct wc_engine *e, u32 node, u32 port)
{
	if (node >= e->nnodes || port >= e->nports)
		return 0;
	return e->phys_blocked[node * e->nports + port];
}

static const char *chan_name(const struct wc_engine *e,
			     const struct wc_chan *c, char *buf, size_t len)
{
	u32 idx = (u32)(c - e->chan);

	if (c->kind == CHAN_NET)
		wc_snprintf(buf, len, "%u.p%u.vc%u", c->phys / e->nports,
			    c->phys % e->nports, c->vc);
	else if (c->kind == CHAN_INJ)
		wc_snprintf(buf, len, "%u.inj%u", c->node,
			    (idx - e->inj_base) % e->p.inj_channels);
	else
		wc_snprintf(buf, len, "%u.cons%u", c->node,
			    (idx - e->cons_base) % e->p.cons_channels);
	return buf;
}

u32 wc_engine_dump_waits(const struct wc_engine *e, char *buf, size_t len)
{
	const struct wc_worm *w;
	size_t used = 0;
	u32 blocked = 0;
	char a[32], b[32];

	if (len)
		buf[0] = '\0';
	for (w = e->active_head; w; w = w->next_active) {
		const struct wc_chan *c;

		for (c = w->first; c; c = c->next) {
			const struct wc_chan *h = NULL;
			u32 port, vc;

			if (c->routed || !c->sent)
				continue;
			blocked++;
			/* Who holds the channels this header could want? */
			for (port = 0; port < e->nports && !h; port++) {
				u32 p = c->node * e->nports + port;

				if (e->nbr[p] == WC_NO_NODE)
					continue;
				for (vc = 0; vc < e->p.vcs; vc++) {
					const struct wc_chan *k =
						&e->chan[p * e->p.vcs + vc];

					if (k->worm && k->worm != w) {
						h = k;
						break;
					}
				}
			}
			if (used + 1 >= len)
				continue;
			used += wc_snprintf(buf + used, len - used,
					    "worm %llu (src %u) at node %u in %s waits%s%s%s%llu\n",
					    (unsigned long long)w->id,
					    w->msg->src, c->node,
					    chan_name(e, c, a, sizeof(a)),
					    h ? "; " : "",
					    h ? chan_name(e, h, b, sizeof(b)) : "",
					    h ? " held by worm " : " ",
					    h ? (unsigned long long)h->worm->id : 0ULL);
			if (used >= len)
				used = len - 1;
		}
	}
	return blocked;
}
