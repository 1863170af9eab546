#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The second part of the debug kernel's selftests in make check: the
# selftests that tests/vm/selftests-debug.sh leaves out when it runs with
# WC_DEBUG_PART=early (the list is there), in a VM of their own.
WC_DEBUG_PART=late exec "$(dirname "$0")/selftests-debug.sh"
