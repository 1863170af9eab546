// SPDX-License-Identifier: GPL-2.0
/*
 * wormsim: synthetic traffic on the wormcast flit-level engine.
 * Usage: wormsim --help; the work is in sim.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

int main(int argc, char **argv)
{
	struct sim_config cfg;
	struct sim_result *res;
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
		return 0;
	}
	if (cfg.csv_path) {
		csv = strcmp(cfg.csv_path, "-") ? fopen(cfg.csv_path, "w") : stdout;
		if (!csv) {
			fprintf(stderr, "wormsim: %s: %m\n", cfg.csv_path);
			return 1;
		}
	}
	res = calloc(cfg.npoints, sizeof(*res));
	if (!res) {
		fprintf(stderr, "wormsim: out of memory\n");
		return 1;
	}
	for (i = 0; i < cfg.npoints; i++) {
		ret = sim_run(&cfg, sim_point_load(&cfg, i), &res[i]);
		if (ret) {
			fprintf(stderr, "wormsim: run at load %.3f failed: %s\n",
				sim_point_load(&cfg, i), strerror(-ret));
			status = 1;
			goto out;
		}
	}
	if (cfg.json)
		sim_print_json(stdout, &cfg, res, cfg.npoints);
	else
		sim_print_summary(stdout, &cfg, res, cfg.npoints);
	if (csv) {
		sim_print_csv(csv, &cfg, res, cfg.npoints);
		if (fflush(csv)) {
			fprintf(stderr, "wormsim: %s: %m\n", cfg.csv_path);
			status = 1;
		}
	}
	if (cfg.plot_prefix) {
		ret = sim_plot(cfg.plot_prefix, &cfg, res, cfg.npoints, err,
			       sizeof(err));
		/* a missing gnuplot is only a warning: the data are written */
		if (ret)
			fprintf(stderr, "wormsim: %s\n", err);
		if (ret == 1)
			status = 1;
	}
	for (i = 0; i < cfg.npoints; i++)
		if (res[i].deadlocks || res[i].route_errors)
			status = 1;
out:
	if (csv && csv != stdout && fclose(csv) && !status) {
		fprintf(stderr, "wormsim: %s: %m\n", cfg.csv_path);
		status = 1;
	}
	free(res);
	return status;
}
