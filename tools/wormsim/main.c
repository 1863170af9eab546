// SPDX-License-Identifier: GPL-2.0
/*
 * wormsim: synthetic traffic on the wormcast flit-level engine.
 * Usage: wormsim --help; the work is in sim.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "sim.h"

int main(int argc, char **argv)
{
	struct sim_config cfg;
	struct sim_sweep sw;
	char err[512];
	int ret, status = 0;
	FILE *csv = NULL;
	u32 i;

	ret = sim_parse_args(argc, argv, &cfg, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "wormsim: %s\n", err);
		return ret;
	}
	if (cfg.help) {
		sim_usage(stdout);
		sim_config_free(&cfg);
		return 0;
	}
	if (cfg.bcast) {
		struct sim_bcast b;

		ret = sim_bcast(&cfg, &b);
		if (ret) {
			fprintf(stderr, "wormsim: --bcast: %s\n", strerror(-ret));
			status = 1;
		} else {
			sim_print_bcast(stdout, &cfg, &b);
			status = b.deadlocks || b.route_errors ||
				 b.reached != cfg.topo.nnodes - 1 ||
				 b.duplicates;
		}
		sim_config_free(&cfg);
		return status;
	}
	if (cfg.mcast0) {
		struct sim_mcast0 z;

		ret = sim_mcast0(&cfg, &z);
		if (ret) {
			fprintf(stderr, "wormsim: --mcast0: %s\n",
				ret == -EOPNOTSUPP ?
				"only unicast and the label schemes" :
				strerror(-ret));
			status = 1;
		} else {
			sim_print_mcast0(stdout, &cfg, &z);
			status = z.deadlocks || z.route_errors || z.lost;
		}
		sim_config_free(&cfg);
		return status;
	}
	if (cfg.csv_path) {
		csv = strcmp(cfg.csv_path, "-") ? fopen(cfg.csv_path, "w") : stdout;
		if (!csv) {
			fprintf(stderr, "wormsim: %s: %m\n", cfg.csv_path);
			sim_config_free(&cfg);
			return 1;
		}
	}
	ret = sim_sweep(&cfg, cfg.jobs, &sw);
	if (ret) {
		if (sw.failed < cfg.npoints)
			fprintf(stderr, "wormsim: run at load %.3f failed: %s\n",
				sim_point_load(&cfg, sw.failed), strerror(-ret));
		else
			fprintf(stderr, "wormsim: zero-load run failed: %s\n",
				strerror(-ret));
		status = 1;
		goto out;
	}
	if (cfg.json)
		sim_print_json(stdout, &cfg, &sw);
	else
		sim_print_summary(stdout, &cfg, &sw);
	if (csv) {
		sim_print_csv(csv, &cfg, &sw);
		if (fflush(csv)) {
			fprintf(stderr, "wormsim: %s: %m\n", cfg.csv_path);
			status = 1;
		}
	}
	if (cfg.links_json) {
		FILE *lj = strcmp(cfg.links_json, "-") ?
			   fopen(cfg.links_json, "w") : stdout;

		if (lj)
			sim_print_links_json(lj, &cfg, &sw);
		if (!lj || (lj != stdout ? fclose(lj) : fflush(lj))) {
			fprintf(stderr, "wormsim: %s: %m\n", cfg.links_json);
			status = 1;
		}
	}
	if (cfg.plot_prefix) {
		ret = sim_plot(cfg.plot_prefix, &cfg, &sw, err, sizeof(err));
		/* a missing gnuplot is only a warning: the data are written */
		if (ret)
			fprintf(stderr, "wormsim: %s\n", err);
		if (ret == 1)
			status = 1;
	}
	for (i = 0; i < cfg.npoints; i++)
		if (sw.res[i].deadlocks || sw.res[i].route_errors ||
		    sw.res[i].misdelivered)
			status = 1;
out:
	if (csv && csv != stdout && fclose(csv) && !status) {
		fprintf(stderr, "wormsim: %s: %m\n", cfg.csv_path);
		status = 1;
	}
	sim_sweep_free(&sw);
	sim_config_free(&cfg);
	return status;
}
