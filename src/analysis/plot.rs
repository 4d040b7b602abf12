//! The score of a reviewed game, move by move, for Black: a small chart of text for the
//! terminal (under the review's table) and an SVG image drawn with `plotters` (`--plot`).

use super::review::{Mark, Review};
use crate::search::DISC;
use plotters::prelude::*;

/// Rows of the text chart above the zero line, and as many below.
const HALF_HEIGHT: i32 = 4;
/// Columns of the text chart at most: a longer game is drawn a column for several moves.
const MOST_COLUMNS: usize = 64;

/// The score for Black after each move reviewed, in discs.
fn scores(review: &Review) -> Vec<(usize, f64)> {
    review
        .moves
        .iter()
        .map(|m| (m.ply, m.for_black().hundredths() as f64 / DISC as f64))
        .collect()
}

/// The chart of text: a column a move (or a few), up for Black's lead and down for White's,
/// scaled to the largest lead (a row for a lead of half a disc or more), with the scale on
/// the left.
pub fn write_chart(review: &Review, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let scores = scores(review);
    if scores.is_empty() {
        return Ok(());
    }
    let per_column = scores.len().div_ceil(MOST_COLUMNS);
    // Each column shows the score after its last move.
    let columns: Vec<f64> = scores
        .chunks(per_column)
        .map(|c| c[c.len() - 1].1)
        .collect();
    let most = columns.iter().fold(1.0_f64, |m, v| m.max(v.abs()));
    // A lead of half a disc or more shows as a row at least, so that the even opening shows.
    let rows = |v: f64| {
        let rows = if v.abs() < 0.5 {
            0.0
        } else {
            (v.abs() / most * HALF_HEIGHT as f64).ceil()
        };
        rows as i32 * if v < 0.0 { -1 } else { 1 }
    };
    let unit = if per_column == 1 {
        "a column a move".to_string()
    } else {
        format!("a column every {per_column} moves")
    };
    writeln!(out, "Score for Black ({unit}):")?;
    for row in (-HALF_HEIGHT..=HALF_HEIGHT).rev() {
        let label = match row {
            r if r == HALF_HEIGHT => format!("{:+.0}", most),
            r if r == -HALF_HEIGHT => format!("{:+.0}", -most),
            0 => "0".to_string(),
            _ => String::new(),
        };
        let line: String = columns
            .iter()
            .map(|&v| {
                let r = rows(v);
                match row {
                    0 => '-',
                    _ if row > 0 && r >= row => '#',
                    _ if row < 0 && r <= row => '#',
                    _ => ' ',
                }
            })
            .collect();
        writeln!(out, "{label:>4} |{}", line.trim_end())?;
    }
    Ok(())
}

/// The SVG image of the score, 900 by 420 pixels, headed `title`: the score for Black after
/// each move, mistakes (orange) and blunders (red) marked.
pub fn svg(review: &Review, title: &str) -> anyhow::Result<String> {
    let (width, height) = (900, 420);
    let scores = scores(review);
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let last = scores.last().map_or(1, |s| s.0).max(1);
        let most = scores.iter().fold(4.0_f64, |m, s| m.max(s.1.abs())).ceil();
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(0..last + 1, -most..most)?;
        chart
            .configure_mesh()
            .x_desc("move")
            .y_desc("discs for Black")
            .draw()?;
        chart.draw_series(LineSeries::new(
            [(0, 0.0), (last + 1, 0.0)],
            BLACK.stroke_width(1),
        ))?;
        chart.draw_series(LineSeries::new(
            scores.iter().copied(),
            BLUE.stroke_width(2),
        ))?;
        for m in &review.moves {
            let colour = match m.mark {
                Mark::Good => continue,
                Mark::Mistake => RGBColor(230, 140, 0),
                Mark::Blunder => RED,
            };
            let at = (m.ply, m.for_black().hundredths() as f64 / DISC as f64);
            chart.draw_series(std::iter::once(Circle::new(at, 5, colour.filled())))?;
        }
        root.present()?;
    }
    Ok(text)
}
