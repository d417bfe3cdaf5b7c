//! What `canopy bench` prints: the tables, and the SVG plot of `--plot`.

use std::fmt::Write as _;

use super::BenchReport;
use crate::svg::{nice_ceiling, short_number, Anchor, Frame, Spread, Svg};

/// The board size or tree shape after the game's name (` 15x15`, ` branching 8 depth 12`), or nothing.
fn shape_label(r: &BenchReport) -> String {
    match (r.size, r.tree) {
        (Some(s), _) => format!(" {s}x{s}"),
        (None, Some(t)) => format!(" branching {} depth {}", t.branching, t.depth),
        (None, None) => String::new(),
    }
}

/// Searches shorter than this (milliseconds) get a warning: thread start, table set-up and the first
/// touch of fresh memory are then a visible part of the time.
const SHORT_SEARCH_MS: f64 = 10.0;

/// A run-to-run spread (slowest against fastest of `--repeat`) above this is called out under the table.
const NOISY_SPREAD: f64 = 0.10;

/// Prints the report as tables; the last line is `N nodes M nps` for one thread.
/// Playouts a position below which `--split`'s tree column is mostly the search's start-up (measured: a
/// Gomoku 9x9 search of 2 playouts costs about 60 us a playout, of 20 000 about 3 us).
const SPLIT_MIN_PLAYOUTS: u64 = 1000;

pub(super) fn print_report(r: &BenchReport) {
    let size = shape_label(r);
    println!(
        "canopy bench: {}{size}, {} position{} x {} playouts, best of {}, seed {}, threads {}, table {}",
        r.game,
        r.positions.len(),
        if r.positions.len() == 1 { "" } else { "s" },
        r.playouts_per_position,
        r.repeat,
        r.seed,
        if r.pinned { "pinned" } else { "not pinned" },
        if r.transposition_table { "on" } else { "off" },
    );
    let chance = match (&r.chance, r.min_span) {
        (Some(chance), Some(min_span)) => format!(", chance {chance}, min span {min_span}"),
        _ => String::new(),
    };
    println!(
        "search: exploration {}, virtual loss {}, batch plies {}, expand threshold {}, statistics {}{chance}",
        r.exploration, r.virtual_loss, r.batch_plies, r.expand_threshold, r.statistics
    );
    println!("rollout policy: {}", r.rollout_policy);
    for p in &r.positions {
        println!("  {:<8} {}", p.name, p.position);
    }
    println!(
        "bare rollouts, 1 thread, same policy and positions: {:.0} rollouts/s ({} rollouts)",
        r.rollouts_per_sec, r.rollouts
    );
    println!();
    let unshared = r.results.iter().any(|t| t.unshared.is_some());
    let mut header = format!(
        "{:>7} {:>12} {:>8} {:>10} {:>10} {:>12} {:>11}",
        "threads", "playouts/s", "speedup", "efficiency", "nodes", "nodes/s", "vs rollouts"
    );
    let spread = r.repeat > 1;
    if spread {
        let _ = write!(header, " {:>7}", "spread");
    }
    if unshared {
        let _ = write!(header, " {:>9} {:>12}", "unshared", "of unshared");
    }
    println!("{header}");
    for t in &r.results {
        let mut line = format!(
            "{:>7} {:>12.0} {:>8.2} {:>9.1}% {:>10} {:>12.0} {:>11.2}",
            t.threads,
            t.playouts_per_sec,
            t.speedup,
            t.efficiency * 100.0,
            t.nodes,
            t.nodes_per_sec,
            t.vs_rollouts,
        );
        if spread {
            let _ = write!(line, " {:>6.1}%", t.spread * 100.0);
        }
        match &t.unshared {
            Some(u) => {
                let _ = write!(line, " {:>9.2} {:>11.1}%", u.speedup, u.shared_share * 100.0);
            }
            None if unshared => {
                let _ = write!(line, " {:>9} {:>12}", "-", "-");
            }
            None => {}
        }
        if t.memory_limited {
            line.push_str("  (memory budget reached)");
        }
        if t.unshared.as_ref().is_some_and(|u| u.memory_limited) {
            line.push_str("  (unshared: memory budget reached)");
        }
        println!("{line}");
    }
    println!(
        "vs rollouts: the search's playouts/s over the bare rollouts/s above, so one thread's figure is the share \
         of the rollout rate the tree keeps (1 would be a tree that costs nothing), and several threads' can pass 1"
    );
    if spread {
        let widest = r.results.iter().map(|t| t.spread).fold(0.0, f64::max);
        let note = if widest > NOISY_SPREAD {
            format!(
                "; up to {:.0}% here: the same search took that much longer in one run than in another, so \
                 figures from other runs compare loosely",
                widest * 100.0
            )
        } else {
            String::new()
        };
        println!(
            "spread: how much slower the slowest of the {} runs of each position was than the fastest, which \
             counts (summed over the positions){note}",
            r.repeat
        );
    }
    if unshared {
        let cores = if r.pinned { " on its own core" } else { "" };
        println!(
            "unshared: the speedup over one thread of T one-worker searches run at once, each with its own \
             tree{cores} (no tree shared: this machine's ceiling for T workers); of unshared: the shared tree's rate \
             as a share of theirs"
        );
    }
    if !r.unshared_not_measured.is_empty() {
        println!(
            "unshared: not measured at {} threads, above the {} logical cores (the searches would share cores)",
            r.unshared_not_measured.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "),
            r.logical_cores
        );
    }
    if r.baseline_threads != 1 {
        println!("speedup and efficiency are relative to {} threads", r.baseline_threads);
    }
    let shortest = r.results.iter().flat_map(|t| &t.positions).map(|p| p.elapsed_ms).fold(f64::INFINITY, f64::min);
    if shortest < SHORT_SEARCH_MS {
        println!(
            "some searches took under {SHORT_SEARCH_MS} ms ({shortest:.2} ms): start-up costs and timer noise weigh on \
             these figures; give more --playouts"
        );
    }
    println!();
    let mut header = format!("{:<10} {:>12}", "position", "rollouts/s");
    for t in &r.results {
        let _ = write!(header, " {:>12}", format!("{} thr pl/s", t.threads));
        if t.unshared.is_some() {
            let _ = write!(header, " {:>13}", format!("{} unsh pl/s", t.threads));
        }
    }
    println!("{header}");
    for (i, p) in r.positions.iter().enumerate() {
        let mut line = format!("{:<10} {:>12.0}", p.name, p.rollouts_per_sec);
        for t in &r.results {
            let _ = write!(line, " {:>12.0}", t.positions[i].playouts_per_sec);
            if let Some(u) = &t.unshared {
                let _ = write!(line, " {:>13.0}", u.positions.get(i).map_or(0.0, |p| p.playouts_per_sec));
            }
        }
        println!("{line}");
    }
    if unshared {
        println!("T unsh pl/s: the T unshared searches' playouts/s together on the position");
    }
    if let Some(split) = &r.split {
        println!();
        println!("one thread, split (us per playout)");
        println!(
            "{:<10} {:>9} {:>9} {:>12} {:>9} {:>9} {:>9} {:>9} {:>9}",
            "position", "bare", "search", "vs rollouts", "timed", "rollouts", "tree", "budget", "clock"
        );
        for s in split {
            let mut line = format!(
                "{:<10} {:>9.4} {:>9.4} {:>12.2} {:>9.4} {:>9.4} {:>9.4} {:>9.4} {:>8.0}%",
                s.name,
                s.bare_us,
                s.search_us,
                s.vs_rollouts,
                s.timed_search_us,
                s.rollout_us,
                s.tree_us,
                s.budget_us,
                s.clock_share * 100.0
            );
            if s.clock_share > 0.1 {
                line.push_str("  (rough: rollouts not much longer than a clock read)");
            }
            println!("{line}");
        }
        println!(
            "bare: one rollout from the position alone; search: the one-thread search's time per playout, and vs \
             rollouts bare / search on this position (the table above gives it over all positions together); timed: \
             the same search with a clock read around every rollout, fastest of {}, split into rollouts (the time in \
             its rollouts, per playout: a playout that ends at a terminal node runs none) and tree (timed - \
             rollouts); budget: the most the tree may cost for vs rollouts to reach 0.85, bare / 0.85 - rollouts; \
             clock: the share of timed spent reading the clock ({:.3} us a rollout, about half of it counted in \
             rollouts and half in tree)",
            r.repeat,
            r.clock_pair_us.unwrap_or(0.0)
        );
        if r.playouts_per_position < SPLIT_MIN_PLAYOUTS {
            println!(
                "(with {} playouts a position the search's start-up (building its tree and table, starting its \
                 worker) is counted under tree: give --playouts {SPLIT_MIN_PLAYOUTS} or more)",
                r.playouts_per_position
            );
        }
    }
    if let Some(m) = &r.model {
        println!();
        println!(
            "contention model (docs/BENCHMARKS.md): t1 {:.3} us, t1 on the shared paths {:.3} us, t2 {:.3} us per \
             playout and thread, line transfer {:.3} us, top root move {:.0}% of playouts, {:.1} shared lines per \
             playout",
            m.t1_us,
            m.t1_shared_us,
            m.t2_us,
            m.line_transfer_us,
            m.top_share * 100.0,
            m.shared_lines
        );
        if r.shared_paths.is_some() {
            let loss = m.t2_us - m.t1_us;
            if loss <= 0.0 {
                println!("two threads lost nothing per playout and thread against one (t2 <= t1): nothing to split");
            } else {
                let paths = (m.t1_shared_us - m.t1_us).clamp(0.0, loss);
                println!(
                    "two threads pay {loss:.3} us more per playout and thread than one: {paths:.3} us for the \
                     several-worker code paths, {:.3} us for sharing cache lines",
                    loss - paths
                );
            }
            if r.repeat < 3 {
                println!(
                    "(with --repeat {} the first one-thread pass also warms the machine up, so the split is rough: \
                     use --repeat 3 or more)",
                    r.repeat
                );
            }
        }
        let mut threads = format!("{:<10}", "threads");
        let mut eff = format!("{:<10}", "efficiency");
        let mut speedup = format!("{:<10}", "speedup");
        for p in &m.predicted {
            let _ = write!(threads, " {:>7}", p.threads);
            let _ = write!(eff, " {:>6.0}%", p.efficiency * 100.0);
            let _ = write!(speedup, " {:>7.1}", p.speedup);
        }
        println!("{threads}\n{eff}\n{speedup}");
        match m.knee_threads {
            Some(k) => println!("knee: from {k} threads the most written cache line limits the rate"),
            None => println!("knee: none up to 4096 threads"),
        }
        if m.hot_line_above_measured {
            println!(
                "the hot-line bound at 2 threads ({:.3} us per playout and thread) is above the measured t2 ({:.3} us): \
                 the most written line was held for less than the hand-over time measured here, so the predictions \
                 that the hot line decides (2 threads included) are too low",
                m.hot_line_at_two_us, m.t2_us
            );
        }
        println!();
    }
    if let Some(t) = &r.line_transfer_ns {
        println!(
            "cache-line hand-over between the cores of workers 0 and 1: {:.0} ns before the searches, {:.0} ns after",
            t.before, t.after
        );
        if t.drifted {
            println!(
                "the hand-over time changed by more than 1.5 times during the run (other programs' load, or where the \
                 host runs this machine's cores, changed): the speedups may mix two states of the machine; run again"
            );
        }
    }
    match &r.cpu_during_run {
        Some(c) if c.ticks == 0 => println!(
            "during the run less than one clock tick of the cores' time passed: too short a run to tell who else used \
             them"
        ),
        Some(c) => {
            let mut line = format!(
                "during the run other programs used {:.1}% of the cores' time, the host (steal) {:.1}%",
                c.others * 100.0,
                c.steal * 100.0
            );
            if c.notable() {
                line.push_str(": the timings shared the cores, and compare loosely with an idle machine's");
            } else if c.too_short() {
                let _ = write!(line, " (over {} clock ticks: too short a run to tell)", c.ticks);
            }
            println!("{line}");
            println!(
                "page faults: {} during the timed searches (pages of 4 KiB the kernel mapped in for this process, a \
                 cost inside the timings; an untimed search per position and thread count maps most of the \
                 workers' memory in first)",
                c.page_faults
            );
        }
        None => {}
    }
    println!("node {} bytes, edge {} bytes, {} logical cores", r.node_bytes, r.edge_bytes, r.logical_cores);
    if let Some(one) = r.results.iter().find(|t| t.threads == 1) {
        println!("{} nodes {:.0} nps", one.nodes, one.nodes_per_sec);
    }
}

/// Playouts per second (with the ideal linear scaling) and parallel efficiency against threads, as two
/// side-by-side charts.
pub(super) fn plot_svg(r: &BenchReport) -> String {
    /// One chart's width and height, and the plot area's margins (left, right, top, bottom).
    const PANEL: (f64, f64) = (420.0, 320.0);
    const MARGINS: (f64, f64, f64, f64) = (70.0, 20.0, 40.0, 50.0);
    const BLUE: &str = "#1f6fb4";
    const ORANGE: &str = "#d9711c";
    let (w, h) = PANEL;
    let xs: Vec<usize> = r.results.iter().map(|t| t.threads).collect();
    let base = r.results.first().map_or(0.0, |t| t.playouts_per_sec);
    let ideal: Vec<f64> = xs.iter().map(|&t| base * t as f64 / r.baseline_threads as f64).collect();
    let pps: Vec<f64> = r.results.iter().map(|t| t.playouts_per_sec).collect();
    let eff: Vec<f64> = r.results.iter().map(|t| t.efficiency * 100.0).collect();
    // `--unshared`: (slot, playouts/s, efficiency %) of the unshared searches where measured, from the one
    // thread (a one-worker search shares nothing either).
    let unshared: Vec<(usize, f64, f64)> = if r.results.iter().any(|t| t.unshared.is_some()) {
        r.results
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match &t.unshared {
                Some(u) => {
                    Some((i, u.playouts_per_sec, u.speedup * r.baseline_threads as f64 / t.threads as f64 * 100.0))
                }
                None if t.threads == r.baseline_threads => Some((i, t.playouts_per_sec, 100.0)),
                None => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    let pps_max =
        nice_ceiling(pps.iter().chain(&ideal).chain(unshared.iter().map(|u| &u.1)).cloned().fold(0.0, f64::max) * 1.05);
    let eff_max = nice_ceiling(eff.iter().chain(unshared.iter().map(|u| &u.2)).cloned().fold(100.0, f64::max) * 1.05);
    let labels: Vec<String> = xs.iter().map(|t| t.to_string()).collect();
    let size = shape_label(r);

    let mut svg = Svg::new(2.0 * w, h);
    let panels = [
        Panel { x: 0.0, title: "playouts/s", values: &pps, reference: ideal.clone(), max: pps_max, percent: false },
        Panel {
            x: w,
            title: "parallel efficiency (%)",
            values: &eff,
            reference: vec![100.0; eff.len()],
            max: eff_max,
            percent: true,
        },
    ];
    for p in panels {
        let frame = Frame::in_panel(p.x, PANEL, MARGINS, xs.len(), Spread::Edges, p.max);
        let title = format!("canopy bench {}{size}: {}", r.game, p.title);
        svg.text((p.x + w / 2.0, 22.0), Anchor::Middle, r#"font-size="14""#, &title);
        // Axes, grid and tick labels.
        let ticks: Vec<(f64, String)> = (0..=4)
            .map(|k| {
                let v = p.max * k as f64 / 4.0;
                (v, if p.percent { format!("{v:.0}") } else { short_number(v) })
            })
            .collect();
        frame.grid(&mut svg, &ticks);
        frame.axes(&mut svg);
        frame.slot_labels(&mut svg, &labels, 16.0);
        svg.text(((frame.left + frame.right) / 2.0, h - 12.0), Anchor::Middle, "", "threads");
        // The reference (ideal linear scaling, or 100 % efficiency), then the measurements.
        frame.line(&mut svg, &p.reference, r##"stroke="#999" stroke-dasharray="5,4""##);
        if !unshared.is_empty() {
            let points: Vec<(usize, f64)> =
                unshared.iter().map(|&(i, pps, eff)| (i, if p.percent { eff } else { pps })).collect();
            let at: Vec<(f64, f64)> = points.iter().map(|&(i, v)| frame.at(i, v)).collect();
            svg.polyline(&at, &format!(r#"stroke="{ORANGE}" stroke-width="2""#));
            for &(i, v) in &points {
                let value = if p.percent { format!("{v:.1}%") } else { format!("{v:.0} playouts/s") };
                let title = format!("{} unshared search(es): {value}", xs[i]);
                svg.circle(frame.at(i, v), 3.0, ORANGE, Some(&title));
            }
        }
        frame.line(&mut svg, p.values, &format!(r#"stroke="{BLUE}" stroke-width="2""#));
        for (i, &v) in p.values.iter().enumerate() {
            let value = if p.percent { format!("{v:.1}%") } else { format!("{v:.0} playouts/s") };
            svg.circle(frame.at(i, v), 3.5, BLUE, Some(&format!("{} thread(s): {value}", xs[i])));
        }
        let legend = if p.percent { "dashed: 100%" } else { "dashed: linear scaling" };
        svg.text((frame.left + 8.0, frame.top + 14.0), Anchor::Start, r##"fill="#666""##, legend);
        svg.text((frame.left + 8.0, frame.top + 30.0), Anchor::Start, &format!(r#"fill="{BLUE}""#), "shared tree");
        if !unshared.is_empty() {
            let note = "unshared searches (--unshared)";
            svg.text((frame.left + 8.0, frame.top + 46.0), Anchor::Start, &format!(r#"fill="{ORANGE}""#), note);
        }
    }
    svg.finish()
}

/// One chart of [`plot_svg`].
struct Panel<'a> {
    /// Left edge in the picture.
    x: f64,
    title: &'static str,
    values: &'a [f64],
    /// The dashed reference line.
    reference: Vec<f64>,
    /// Top of the value axis.
    max: f64,
    /// Values are percentages.
    percent: bool,
}
