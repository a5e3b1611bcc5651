# shellcheck shell=bash
# The machine's CPU ticks from /proc/stat, "busy all": two readings around a phase say how busy
# both cores were, i.e. whether waiting or computing bounds it. Sourced by scripts/test-all.sh
# and scripts/e2e/run.sh.
cpu_ticks() {
	local _ user nice system idle iowait irq softirq steal
	read -r _ user nice system idle iowait irq softirq steal _ </proc/stat
	echo "$((user + nice + system + irq + softirq + steal)) $((user + nice + system + idle + iowait + irq + softirq + steal))"
}

# The busy share, in percent, between two cpu_ticks readings.
cpu_busy_percent() {
	local busy0 all0 busy1 all1
	read -r busy0 all0 <<<"$1"
	read -r busy1 all1 <<<"$2"
	echo "$((100 * (busy1 - busy0) / (all1 > all0 ? all1 - all0 : 1)))"
}
