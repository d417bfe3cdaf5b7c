//! What `canopy bench` prints: the tables, and the SVG plot of `--plot`.

use std::fmt::Write as _;

use super::BenchReport;

/// Prints the report as tables; the last line is `N nodes M nps` for one thread.
pub(super) fn print_report(r: &BenchReport) {
    let size = r.size.map_or(String::new(), |s| format!(" {s}x{s}"));
    println!(
        "canopy bench: {}{size}, {} positions x {} playouts, best of {}, seed {}, threads {}, table {}",
        r.game,
        r.positions.len(),
        r.playouts_per_position,
        r.repeat,
        r.seed,
        if r.pinned { "pinned" } else { "not pinned" },
        if r.transposition_table { "on" } else { "off" },
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
    println!(
        "{:>7} {:>12} {:>8} {:>10} {:>10} {:>12} {:>11}",
        "threads", "playouts/s", "speedup", "efficiency", "nodes", "nodes/s", "vs rollouts"
    );
    for t in &r.results {
        println!(
            "{:>7} {:>12.0} {:>8.2} {:>9.1}% {:>10} {:>12.0} {:>11.2}{}",
            t.threads,
            t.playouts_per_sec,
            t.speedup,
            t.efficiency * 100.0,
            t.nodes,
            t.nodes_per_sec,
            t.vs_rollouts,
            if t.memory_limited { "  (memory budget reached)" } else { "" }
        );
    }
    if r.baseline_threads != 1 {
        println!("speedup and efficiency are relative to {} threads", r.baseline_threads);
    }
    println!();
    let mut header = format!("{:<10} {:>12}", "position", "rollouts/s");
    for t in &r.results {
        let _ = write!(header, " {:>12}", format!("{} thr pl/s", t.threads));
    }
    println!("{header}");
    for (i, p) in r.positions.iter().enumerate() {
        let mut line = format!("{:<10} {:>12.0}", p.name, p.rollouts_per_sec);
        for t in &r.results {
            let _ = write!(line, " {:>12.0}", t.positions[i].playouts_per_sec);
        }
        println!("{line}");
    }
    println!("node {} bytes, edge {} bytes, {} logical cores", r.node_bytes, r.edge_bytes, r.logical_cores);
    if let Some(one) = r.results.iter().find(|t| t.threads == 1) {
        println!("{} nodes {:.0} nps", one.nodes, one.nodes_per_sec);
    }
}

/// Playouts per second (with the ideal linear scaling) and parallel efficiency against threads, as two
/// side-by-side SVG charts drawn by hand (no font or system library needed).
pub(super) fn plot_svg(r: &BenchReport) -> String {
    const W: f64 = 420.0;
    const H: f64 = 320.0;
    const LEFT: f64 = 70.0;
    const RIGHT: f64 = 20.0;
    const TOP: f64 = 40.0;
    const BOTTOM: f64 = 50.0;
    let xs: Vec<usize> = r.results.iter().map(|t| t.threads).collect();
    let n = xs.len().max(1);
    // Thread counts evenly spaced (they usually double).
    let x_at = |panel: f64, i: usize| {
        let inner = W - LEFT - RIGHT;
        panel + LEFT + if n == 1 { inner / 2.0 } else { inner * i as f64 / (n - 1) as f64 }
    };
    let y_at = |v: f64, max: f64| TOP + (H - TOP - BOTTOM) * (1.0 - if max > 0.0 { v / max } else { 0.0 });
    let base = r.results.first().map_or(0.0, |t| t.playouts_per_sec);
    let ideal: Vec<f64> = xs.iter().map(|&t| base * t as f64 / r.baseline_threads as f64).collect();
    let pps: Vec<f64> = r.results.iter().map(|t| t.playouts_per_sec).collect();
    let eff: Vec<f64> = r.results.iter().map(|t| t.efficiency * 100.0).collect();
    let pps_max = nice_ceiling(pps.iter().chain(&ideal).cloned().fold(0.0, f64::max) * 1.05);
    let eff_max = nice_ceiling(eff.iter().cloned().fold(100.0, f64::max) * 1.05);

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{H}" viewBox="0 0 {} {H}" font-family="sans-serif" font-size="12">"#,
        2.0 * W,
        2.0 * W
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let size = r.size.map_or(String::new(), |v| format!(" {v}x{v}"));
    let panels = [
        Panel { x: 0.0, title: "playouts/s", values: &pps, reference: &ideal, max: pps_max, percent: false },
        Panel {
            x: W,
            title: "parallel efficiency (%)",
            values: &eff,
            reference: &[100.0; 0],
            max: eff_max,
            percent: true,
        },
    ];
    for Panel { x: panel, title, values, reference, max, percent: is_eff } in panels {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="22" text-anchor="middle" font-size="14">canopy bench {}{size}: {title}</text>"#,
            panel + W / 2.0,
            r.game
        );
        // Axes, grid and tick labels.
        let (x0, x1) = (panel + LEFT, panel + W - RIGHT);
        let (y0, y1) = (TOP, H - BOTTOM);
        for k in 0..=4 {
            let v = max * k as f64 / 4.0;
            let y = y_at(v, max);
            let _ = writeln!(s, r##"<line x1="{x0}" y1="{y:.1}" x2="{x1}" y2="{y:.1}" stroke="#ddd"/>"##);
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{:.1}" text-anchor="end">{}</text>"#,
                x0 - 6.0,
                y + 4.0,
                if is_eff { format!("{v:.0}") } else { short_number(v) }
            );
        }
        let _ = writeln!(s, r#"<polyline points="{x0},{y0} {x0},{y1} {x1},{y1}" fill="none" stroke="black"/>"#);
        for (i, t) in xs.iter().enumerate() {
            let x = x_at(panel, i);
            let _ = writeln!(s, r#"<text x="{x:.1}" y="{}" text-anchor="middle">{t}</text>"#, y1 + 16.0);
        }
        let _ = writeln!(s, r#"<text x="{}" y="{}" text-anchor="middle">threads</text>"#, (x0 + x1) / 2.0, H - 12.0);
        // The reference: ideal linear scaling, or 100 % efficiency.
        let reference: Vec<f64> = if is_eff { vec![100.0; values.len()] } else { reference.to_vec() };
        let line = |vals: &[f64]| -> String {
            vals.iter()
                .enumerate()
                .map(|(i, &v)| format!("{:.1},{:.1}", x_at(panel, i), y_at(v, max)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let _ = writeln!(
            s,
            r##"<polyline points="{}" fill="none" stroke="#999" stroke-dasharray="5,4"/>"##,
            line(&reference)
        );
        let _ = writeln!(s, r##"<polyline points="{}" fill="none" stroke="#1f6fb4" stroke-width="2"/>"##, line(values));
        for (i, &v) in values.iter().enumerate() {
            let _ = writeln!(
                s,
                r##"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="#1f6fb4"><title>{} thread(s): {}</title></circle>"##,
                x_at(panel, i),
                y_at(v, max),
                xs[i],
                if is_eff { format!("{v:.1}%") } else { format!("{v:.0} playouts/s") }
            );
        }
        let legend = if is_eff { "dashed: 100%" } else { "dashed: linear scaling" };
        let _ = writeln!(s, r##"<text x="{}" y="{}" fill="#666">{legend}</text>"##, x0 + 8.0, y0 + 14.0);
    }
    s.push_str("</svg>\n");
    s
}

/// One chart of [`plot_svg`].
struct Panel<'a> {
    /// Left edge in the picture.
    x: f64,
    title: &'static str,
    values: &'a [f64],
    /// The dashed reference line (ideal scaling); ignored for the efficiency chart, whose reference is 100%.
    reference: &'a [f64],
    /// Top of the value axis.
    max: f64,
    /// Values are percentages.
    percent: bool,
}

/// The smallest of 1, 2, 2.5, 5 times a power of ten that is at least `v` (axis maxima).
fn nice_ceiling(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * p).find(|&c| c >= v).unwrap_or(10.0 * p)
}

/// `1.2M`, `250k`, `900` (axis labels).
fn short_number(v: f64) -> String {
    if v >= 1e6 {
        format!("{}M", trim(v / 1e6))
    } else if v >= 1e3 {
        format!("{}k", trim(v / 1e3))
    } else {
        trim(v)
    }
}

/// `v` with two decimals, trailing zeros and point dropped.
fn trim(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
