/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wormsim tests' argument parsing: PARSE(cfg, err, "--opt", "v", ...)
 * runs sim_parse_args() on "wormsim" and the listed arguments.  Include
 * after tools/wormsim/sim.c.
 */
#ifndef WC_TEST_SIM_PARSE_H
#define WC_TEST_SIM_PARSE_H

#include <stdarg.h>

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

#endif /* WC_TEST_SIM_PARSE_H */
