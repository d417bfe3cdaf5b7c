//! Who else used the machine's cores while `canopy bench` measured: the time other programs ran and the
//! time a virtual machine's host took for itself ("steal"), from Linux's `/proc/stat` and this process's
//! own `/proc/self/stat`. A timing is only as good as the cores it had; these shares say how much of
//! them it did not have. The same file gives the page faults the run took: memory the kernel mapped in
//! for it, which a search pays for on top of its own work.

use serde::Serialize;

/// The machine's CPU time counters and this process's, in clock ticks (`USER_HZ`), at one moment.
#[derive(Clone, Copy, Debug)]
pub(super) struct CpuTimes {
    /// Every state's time summed over all cores (`/proc/stat`, line `cpu`).
    total: u64,
    /// Idle and waiting for I/O.
    idle: u64,
    /// Taken by the host of a virtual machine (`steal`).
    steal: u64,
    /// This process's user and system time, all its threads (`/proc/self/stat`).
    own: u64,
    /// This process's minor page faults so far (`/proc/self/stat`, `minflt`).
    faults: u64,
}

/// Shares of all the cores' time over an interval (each from 0 to 1).
#[derive(Clone, Copy, Debug, Serialize)]
pub(super) struct CpuShare {
    /// Used by other programs: busy time that was neither this process's nor the host's.
    pub others: f64,
    /// Taken by the host of a virtual machine: the cores were not this machine's at all.
    pub steal: f64,
    /// Clock ticks of all the cores' time the shares are taken over (`USER_HZ`, usually 100 a second
    /// per core).
    pub ticks: u64,
    /// Minor page faults this process took over the interval: pages the kernel mapped in, zeroed, for
    /// memory it had not touched (or had handed back) before.
    pub page_faults: u64,
}

impl CpuShare {
    /// Whether others or the host took a notable share: [`NOTABLE_SHARE`] or more, each on its own, and
    /// at least [`MIN_TICKS`] ticks of it (a tick or two of a short run is a large share of nothing).
    pub fn notable(&self) -> bool {
        let counts = |share: f64| share >= NOTABLE_SHARE && share * self.ticks as f64 >= MIN_TICKS as f64 - 0.5;
        counts(self.others) || counts(self.steal)
    }

    /// Whether a share reached [`NOTABLE_SHARE`] on fewer than [`MIN_TICKS`] ticks: too short a run to tell.
    pub fn too_short(&self) -> bool {
        !self.notable() && (self.others >= NOTABLE_SHARE || self.steal >= NOTABLE_SHARE)
    }
}

impl CpuTimes {
    /// The counters now; `None` where `/proc` does not give them (not Linux, or an unreadable format).
    pub fn now() -> Option<CpuTimes> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let own = std::fs::read_to_string("/proc/self/stat").ok()?;
        Self::parse(&stat, &own)
    }

    /// Reads the `cpu` line of `/proc/stat` (`user nice system idle iowait irq softirq steal ...`) and
    /// fields 10, 14 and 15 (`minflt`, `utime`, `stime`) of `/proc/self/stat`, counted after the command
    /// name's closing parenthesis (the name may hold spaces).
    fn parse(stat: &str, own: &str) -> Option<CpuTimes> {
        let line = stat.lines().find(|l| l.split_whitespace().next() == Some("cpu"))?;
        let fields: Vec<u64> = line.split_whitespace().skip(1).map(str::parse).collect::<Result<_, _>>().ok()?;
        if fields.len() < 8 {
            return None;
        }
        // guest and guest_nice (fields 9 and 10) are already counted in user and nice.
        let total = fields[..8].iter().sum();
        let (idle, steal) = (fields[3] + fields[4], fields[7]);
        let after_name = &own[own.rfind(')')? + 1..];
        let mine: Vec<&str> = after_name.split_whitespace().collect();
        // `mine[0]` is field 3 (state), so field n is `mine[n - 3]`.
        let own = mine.get(11)?.parse::<u64>().ok()? + mine.get(12)?.parse::<u64>().ok()?;
        let faults = mine.get(7)?.parse::<u64>().ok()?;
        Some(CpuTimes { total, idle, steal, own, faults })
    }

    /// The shares of the cores' time from `self` to `later` (both 0 when no tick passed); `None` when
    /// the counters went backwards (they never should).
    pub fn share_until(&self, later: &CpuTimes) -> Option<CpuShare> {
        let ticks = later.total.checked_sub(self.total)?;
        let page_faults = later.faults.checked_sub(self.faults)?;
        if ticks == 0 {
            return Some(CpuShare { others: 0.0, steal: 0.0, ticks, page_faults });
        }
        let total = ticks as f64;
        let idle = later.idle.saturating_sub(self.idle) as f64;
        let steal = later.steal.saturating_sub(self.steal) as f64;
        let own = later.own.saturating_sub(self.own) as f64;
        let others = (total - idle - steal - own).max(0.0);
        Some(CpuShare { others: (others / total).min(1.0), steal: (steal / total).min(1.0), ticks, page_faults })
    }
}

/// Others' or the host's share from which `canopy bench` says the timings shared the cores.
pub(super) const NOTABLE_SHARE: f64 = 0.05;

/// Fewest clock ticks of others' or the host's time that count as notable (50 ms of one core at the usual
/// 100 ticks a second).
pub(super) const MIN_TICKS: u64 = 5;

#[cfg(test)]
mod tests {
    use super::*;

    const STAT: &str = "cpu  1000 10 200 5000 40 0 6 30 0 0\ncpu0 500 5 100 2500 20 0 3 15 0 0\nintr 1 2 3\n";

    fn own(utime: u64, stime: u64) -> String {
        format!("4242 (canopy (bench) x) R 1 2 3 0 -1 4194304 121 0 7 0 {utime} {stime} 0 0 20 0 3 0 1065350")
    }

    #[test]
    fn parses_the_machine_line_and_this_process_past_a_name_with_spaces() {
        let t = CpuTimes::parse(STAT, &own(70, 5)).expect("parses");
        assert_eq!((t.total, t.idle, t.steal, t.own, t.faults), (6286, 5040, 30, 75, 121));
        assert!(CpuTimes::parse("cpu 1 2 3\n", &own(1, 1)).is_none(), "too few fields");
        assert!(CpuTimes::parse(STAT, "4242 (x) R 1").is_none(), "too few fields of the process");
        assert!(CpuTimes::parse("intr 1 2\n", &own(1, 1)).is_none(), "no cpu line");
    }

    #[test]
    fn shares_split_the_busy_time_between_this_process_others_and_the_host() {
        let a = CpuTimes { total: 1000, idle: 500, steal: 10, own: 100, faults: 40 };
        // 200 ticks on two cores: 100 idle, 20 stolen, 60 this process's, so 20 others'.
        let b = CpuTimes { total: 1200, idle: 600, steal: 30, own: 160, faults: 1040 };
        let s = a.share_until(&b).expect("ticks passed");
        assert!((s.others - 0.1).abs() < 1e-12 && (s.steal - 0.1).abs() < 1e-12, "{s:?}");
        assert_eq!((s.ticks, s.page_faults), (200, 1000));
        assert!(s.notable() && !s.too_short(), "10% over 200 ticks: {s:?}");
        // One tick of 19 is 5.3%: too short a run to tell. Half of 63 ticks is plenty.
        let one_tick = CpuShare { others: 1.0 / 19.0, steal: 0.0, ticks: 19, page_faults: 0 };
        assert!(!one_tick.notable() && one_tick.too_short(), "{one_tick:?}");
        assert!(CpuShare { others: 0.508, steal: 0.0, ticks: 63, page_faults: 0 }.notable());
        // Each share on its own.
        let small = CpuShare { others: 0.04, steal: 0.04, ticks: 1000, page_faults: 0 };
        assert!(!small.notable() && !small.too_short());
        let none = a.share_until(&a).expect("no tick passed: zero shares");
        assert_eq!((none.others, none.steal, none.ticks, none.page_faults), (0.0, 0.0, 0, 0));
        assert!(!none.notable() && !none.too_short());
        assert!(b.share_until(&a).is_none(), "counters going backwards");
        // This process's time counted by its own clock can run past the machine's: never negative.
        let c = CpuTimes { total: 1100, idle: 520, steal: 10, own: 250, faults: 40 };
        assert_eq!(a.share_until(&c).expect("ticks").others, 0.0);
    }

    #[test]
    fn reads_this_machine_where_proc_exists() {
        if std::path::Path::new("/proc/stat").exists() {
            let a = CpuTimes::now().expect("/proc/stat and /proc/self/stat parse");
            let b = CpuTimes::now().expect("again");
            assert!(b.total >= a.total && b.own >= a.own && b.faults >= a.faults);
        }
    }
}
