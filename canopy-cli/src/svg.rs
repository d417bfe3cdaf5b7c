//! Charts drawn by hand as SVG text (no font or system library needed): [`Svg`] writes the elements in
//! paint order, [`Frame`] places values in a plot area (x: evenly spaced slots, y: linear from 0) and
//! draws its grid, axes and lines. [`svg_plot`] is `canopy sweep`'s mean-score chart; `canopy bench
//! --plot` draws its scaling charts with the same pieces.

use std::fmt::Write as _;

/// Where a text sits relative to its point (SVG's `text-anchor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The text starts at the point.
    Start,
    /// The text is centred on the point.
    Middle,
    /// The text ends at the point.
    End,
}

impl Anchor {
    fn name(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// An SVG picture being drawn; coordinates are pixels from the top-left corner.
#[derive(Clone, Debug)]
pub struct Svg {
    out: String,
}

impl Svg {
    /// A `width` x `height` picture on a white background, with 12-pixel sans-serif text.
    pub fn new(width: f64, height: f64) -> Svg {
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
        );
        out.push_str("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        Svg { out }
    }

    /// `text` (escaped) at `at`, placed by `anchor`; `attrs` are more attributes written as given (e.g.
    /// `font-size="14"`, `fill="#555"`, a `transform`), or empty.
    pub fn text(&mut self, at: (f64, f64), anchor: Anchor, attrs: &str, text: &str) {
        let sep = if attrs.is_empty() { "" } else { " " };
        let _ = writeln!(
            self.out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="{}"{sep}{attrs}>{}</text>"#,
            at.0,
            at.1,
            anchor.name(),
            escape(text)
        );
    }

    /// A straight line from `from` to `to` in the colour `stroke`.
    pub fn line(&mut self, from: (f64, f64), to: (f64, f64), stroke: &str) {
        let _ = writeln!(
            self.out,
            r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{stroke}"/>"#,
            from.0, from.1, to.0, to.1
        );
    }

    /// An unfilled line through `points`; `style` holds its stroke attributes (e.g.
    /// `stroke="#999" stroke-dasharray="5,4"`).
    pub fn polyline(&mut self, points: &[(f64, f64)], style: &str) {
        let points: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let _ = writeln!(self.out, r#"<polyline points="{}" fill="none" {style}/>"#, points.join(" "));
    }

    /// A disc of radius `r` filled with `fill`, with `title` (escaped) as its tooltip when given.
    pub fn circle(&mut self, centre: (f64, f64), r: f64, fill: &str, title: Option<&str>) {
        let _ = write!(self.out, r#"<circle cx="{:.1}" cy="{:.1}" r="{r}" fill="{fill}""#, centre.0, centre.1);
        match title {
            Some(t) => {
                let _ = writeln!(self.out, "><title>{}</title></circle>", escape(t));
            }
            None => self.out.push_str("/>\n"),
        }
    }

    /// The finished SVG document.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// How a [`Frame`] spreads its slots along the x axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spread {
    /// Slot `i` of `n` in the middle of the `i`-th of `n` equal cells (categories).
    Centred,
    /// The first slot on the left edge and the last on the right edge, evenly spaced; a single slot in
    /// the middle.
    Edges,
}

/// A plot area: its edges in pixels, `slots` positions along x, and values from 0 (bottom edge) to
/// `y_max` (top edge).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// Left edge (the value axis).
    pub left: f64,
    /// Right edge.
    pub right: f64,
    /// Top edge (`y_max`).
    pub top: f64,
    /// Bottom edge (the slot axis, value 0).
    pub bottom: f64,
    /// Number of x positions.
    pub slots: usize,
    /// How the slots are spread.
    pub spread: Spread,
    /// The value at the top edge; 0 or less puts every value on the bottom edge.
    pub y_max: f64,
}

impl Frame {
    /// The plot area of a panel of `size` (width, height) whose left edge is at `x`, inside `margins`
    /// (left, right, top, bottom), with `slots` positions spread by `spread` and values up to `y_max`.
    pub fn in_panel(
        x: f64,
        size: (f64, f64),
        margins: (f64, f64, f64, f64),
        slots: usize,
        spread: Spread,
        y_max: f64,
    ) -> Frame {
        let (left, right, top, bottom) = margins;
        Frame { left: x + left, right: x + size.0 - right, top, bottom: size.1 - bottom, slots, spread, y_max }
    }

    /// The x pixel of slot `i`.
    pub fn x(&self, i: usize) -> f64 {
        let (width, n) = (self.right - self.left, self.slots.max(1));
        self.left
            + match self.spread {
                Spread::Centred => width * (i as f64 + 0.5) / n as f64,
                Spread::Edges if n == 1 => width / 2.0,
                Spread::Edges => width * i as f64 / (n - 1) as f64,
            }
    }

    /// The y pixel of value `v`.
    pub fn y(&self, v: f64) -> f64 {
        self.top + (self.bottom - self.top) * (1.0 - if self.y_max > 0.0 { v / self.y_max } else { 0.0 })
    }

    /// The point of value `v` at slot `i`.
    pub fn at(&self, i: usize, v: f64) -> (f64, f64) {
        (self.x(i), self.y(v))
    }

    /// A light grey grid line across the frame at each tick value, labelled left of the value axis.
    pub fn grid(&self, svg: &mut Svg, ticks: &[(f64, String)]) {
        for (v, label) in ticks {
            let y = self.y(*v);
            svg.line((self.left, y), (self.right, y), "#ddd");
            svg.text((self.left - 6.0, y + 4.0), Anchor::End, "", label);
        }
    }

    /// The value axis and the slot axis, in black.
    pub fn axes(&self, svg: &mut Svg) {
        let corners = [(self.left, self.top), (self.left, self.bottom), (self.right, self.bottom)];
        svg.polyline(&corners, r#"stroke="black""#);
    }

    /// `labels[i]` centred under slot `i`, `below` pixels under the slot axis.
    pub fn slot_labels(&self, svg: &mut Svg, labels: &[String], below: f64) {
        for (i, label) in labels.iter().enumerate() {
            svg.text((self.x(i), self.bottom + below), Anchor::Middle, "", label);
        }
    }

    /// A line through `values[i]` at slot `i`; `style` as for [`Svg::polyline`].
    pub fn line(&self, svg: &mut Svg, values: &[f64], style: &str) {
        let points: Vec<(f64, f64)> = values.iter().enumerate().map(|(i, &v)| self.at(i, v)).collect();
        svg.polyline(&points, style);
    }
}

/// A line plot of `points` (label, mean, standard error): values evenly spaced along x in the order
/// given, mean score on y from 0, error bars of one standard error.
pub fn svg_plot(title: &str, x_label: &str, points: &[(String, f64, f64)]) -> String {
    /// The picture's width and height, and the plot area's margins (left, right, top, bottom).
    const SIZE: (f64, f64) = (720.0, 440.0);
    const MARGINS: (f64, f64, f64, f64) = (80.0, 30.0, 50.0, 60.0);
    const BLUE: &str = "#1f77b4";
    let (w, h) = SIZE;
    let top_value = points.iter().map(|p| p.1 + p.2).fold(0.0f64, f64::max).max(1.0);
    let step = nice_step(top_value / 5.0);
    let y_max = (top_value / step).ceil() * step;
    let frame = Frame::in_panel(0.0, SIZE, MARGINS, points.len(), Spread::Centred, y_max);
    let mut svg = Svg::new(w, h);
    svg.text((w / 2.0, 24.0), Anchor::Middle, r#"font-size="14""#, title);
    let ticks: Vec<(f64, String)> = std::iter::successors(Some(0.0), |t| Some(t + step))
        .take_while(|&t| t <= y_max + step / 2.0)
        .map(|t| (t, format!("{t:.0}")))
        .collect();
    frame.grid(&mut svg, &ticks);
    frame.axes(&mut svg);
    svg.text(((frame.left + frame.right) / 2.0, h - 15.0), Anchor::Middle, "", x_label);
    let mid = (frame.top + frame.bottom) / 2.0;
    svg.text((18.0, mid), Anchor::Middle, &format!(r#"transform="rotate(-90 18 {mid})""#), "mean score");
    // The line, the error bars, the points and their labels.
    let means: Vec<f64> = points.iter().map(|p| p.1).collect();
    frame.line(&mut svg, &means, &format!(r#"stroke="{BLUE}" stroke-width="2""#));
    for (i, (label, mean, se)) in points.iter().enumerate() {
        let (px, py) = frame.at(i, *mean);
        svg.line((px, frame.y((mean - se).max(0.0))), (px, frame.y(mean + se)), BLUE);
        svg.circle((px, py), 4.0, BLUE, None);
        svg.text((px, frame.bottom + 18.0), Anchor::Middle, "", label);
        svg.text((px + 6.0, py - 6.0), Anchor::Start, r##"fill="#555""##, &format!("{mean:.0}"));
    }
    svg.finish()
}

/// A round axis step (1, 2 or 5 times a power of ten) at least `raw`.
pub fn nice_step(raw: f64) -> f64 {
    let p = 10f64.powf(raw.max(1e-9).log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * p).find(|&s| s >= raw).unwrap_or(10.0 * p)
}

/// The smallest of 1, 2, 2.5, 5 times a power of ten that is at least `v` (axis maxima); 1 for a `v`
/// that is not positive and finite.
pub fn nice_ceiling(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * p).find(|&c| c >= v).unwrap_or(10.0 * p)
}

/// `1.2M`, `250k`, `900` (axis labels): at most two decimals, trailing zeros dropped.
pub fn short_number(v: f64) -> String {
    let trim = |v: f64| {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    if v >= 1e6 {
        format!("{}M", trim(v / 1e6))
    } else if v >= 1e3 {
        format!("{}k", trim(v / 1e3))
    } else {
        trim(v)
    }
}

/// `text` with `&`, `<` and `>` escaped for SVG text and attributes.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_round() {
        assert_eq!(nice_step(0.7), 1.0);
        assert_eq!(nice_step(13_000.0), 20_000.0);
        assert_eq!(nice_step(4_000.0), 5_000.0);
        assert_eq!(nice_ceiling(2_100.0), 2_500.0);
        assert_eq!(nice_ceiling(0.0), 1.0);
        assert_eq!(short_number(1_250_000.0), "1.25M");
        assert_eq!(short_number(250_000.0), "250k");
        assert_eq!(short_number(900.0), "900");
    }

    #[test]
    fn plot_is_one_svg_with_every_point() {
        let pts = vec![("0.1".to_string(), 1000.0, 50.0), ("a<b".to_string(), 3000.0, 0.0)];
        let svg = svg_plot("t", "c", &pts);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.contains("a&lt;b"));
    }

    #[test]
    fn frames_spread_slots_and_scale_values() {
        let frame =
            Frame { left: 10.0, right: 110.0, top: 0.0, bottom: 50.0, slots: 5, spread: Spread::Edges, y_max: 10.0 };
        assert_eq!((frame.x(0), frame.x(4), frame.x(2)), (10.0, 110.0, 60.0));
        assert_eq!((frame.y(0.0), frame.y(10.0), frame.y(5.0)), (50.0, 0.0, 25.0));
        let one = Frame { slots: 1, ..frame };
        assert_eq!(one.x(0), 60.0);
        let centred = Frame { slots: 4, spread: Spread::Centred, ..frame };
        assert_eq!((centred.x(0), centred.x(3)), (22.5, 97.5));
        assert_eq!(Frame { y_max: 0.0, ..frame }.y(3.0), 50.0);
    }
}
