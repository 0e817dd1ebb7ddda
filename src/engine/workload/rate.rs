//! How a request rate moves over simulated time. A pattern's rate is its base rate times the
//! product of its shapes' factors, so `[Diurnal(…), Spike(…)]` is a daily cycle with a spike on
//! top.

use serde::{Deserialize, Serialize};

use super::ParamError;
use crate::engine::time::{SimDuration, SimTime};

const MILLIS_PER_DAY: u64 = 86_400_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum RateShape {
    /// Factor 1 at all times.
    Constant,
    /// A daily cycle (UTC): `factor` × the base rate at `peak_hour` (0 ≤ h < 24, fractions
    /// allowed), the base rate itself twelve hours away, a raised cosine in between, so the
    /// rate is smooth and the daily mean is base × (1 + factor)/2. A factor below 1 makes a dip.
    /// RON: `Diurnal(peak_hour: 20, factor: 3)`.
    Diurnal { peak_hour: f64, factor: f64 },
    /// `factor` × the rate from `at` after the run starts, for `duration`.
    /// RON: `Spike(at: "2h", factor: 10, duration: "15m")`.
    Spike { at: SimDuration, factor: f64, duration: SimDuration },
}

impl RateShape {
    /// The multiplier at `now`, for a run that started at `start`.
    pub fn factor_at(&self, start: SimTime, now: SimTime) -> f64 {
        match *self {
            RateShape::Constant => 1.0,
            RateShape::Diurnal { peak_hour, factor } => {
                let hour = (now.as_millis() % MILLIS_PER_DAY) as f64 / 3_600_000.0;
                let closeness = f64::midpoint(1.0, (std::f64::consts::TAU * (hour - peak_hour) / 24.0).cos());
                1.0 + (factor - 1.0) * closeness
            }
            RateShape::Spike { at, factor, duration } => {
                let elapsed = now.since(start);
                if elapsed >= at && elapsed < at + duration { factor } else { 1.0 }
            }
        }
    }

    pub fn validate(&self) -> Result<(), ParamError> {
        match *self {
            RateShape::Constant => Ok(()),
            RateShape::Diurnal { peak_hour, factor } => {
                if !(0.0..24.0).contains(&peak_hour) {
                    Err(ParamError::DiurnalPeakHour { peak_hour })
                } else if !(factor.is_finite() && factor > 0.0) {
                    Err(ParamError::DiurnalFactor { factor })
                } else {
                    Ok(())
                }
            }
            RateShape::Spike { factor, duration, .. } => {
                if !(factor.is_finite() && factor >= 0.0) {
                    Err(ParamError::SpikeFactor { factor })
                } else if duration == SimDuration::ZERO {
                    Err(ParamError::SpikeDuration)
                } else {
                    Ok(())
                }
            }
        }
    }
}

/// `base_rate` × every shape's factor at `now`, for a run that started at `start`.
pub fn rate_at(base_rate: f64, shapes: &[RateShape], start: SimTime, now: SimTime) -> f64 {
    shapes.iter().fold(base_rate, |rate, shape| rate * shape.factor_at(start, now))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> SimTime {
        SimTime::parse(text).unwrap()
    }

    fn minutes(n: u64) -> SimDuration {
        SimDuration::from_secs(60 * n)
    }

    #[test]
    fn shapes_multiply_the_base_rate() {
        let start = at("2024-03-01T00:00:00Z");
        let diurnal = RateShape::Diurnal { peak_hour: 20.0, factor: 3.0 };
        let spike = RateShape::Spike { at: minutes(120), factor: 10.0, duration: minutes(15) };
        // (shapes, time, expected rate for base 100)
        let cases = [
            (vec![], "2024-03-01T05:00:00Z", 100.0),
            (vec![RateShape::Constant], "2024-03-01T05:00:00Z", 100.0),
            (vec![diurnal.clone()], "2024-03-01T20:00:00Z", 300.0),
            (vec![diurnal.clone()], "2024-03-05T20:00:00Z", 300.0),
            (vec![diurnal.clone()], "2024-03-01T08:00:00Z", 100.0),
            (vec![diurnal.clone()], "2024-03-01T14:00:00Z", 200.0),
            (vec![diurnal.clone()], "2024-03-02T02:00:00Z", 200.0),
            (vec![spike.clone()], "2024-03-01T01:59:59Z", 100.0),
            (vec![spike.clone()], "2024-03-01T02:00:00Z", 1000.0),
            (vec![spike.clone()], "2024-03-01T02:14:59Z", 1000.0),
            (vec![spike.clone()], "2024-03-01T02:15:00Z", 100.0),
            (
                vec![diurnal.clone(), spike.clone()],
                "2024-03-01T02:00:00Z",
                100.0 * 10.0 * diurnal.factor_at(start, at("2024-03-01T02:00:00Z")),
            ),
            (vec![RateShape::Diurnal { peak_hour: 3.5, factor: 0.5 }], "2024-03-01T03:30:00Z", 50.0),
        ];
        for (shapes, time, expected) in cases {
            let rate = rate_at(100.0, &shapes, start, at(time));
            assert!((rate - expected).abs() < 1e-9, "{shapes:?} at {time}: {rate}, expected {expected}");
        }
    }

    #[test]
    fn the_daily_cycle_is_smooth_and_averages_to_the_midpoint() {
        let shape = RateShape::Diurnal { peak_hour: 20.0, factor: 3.0 };
        let start = SimTime::EPOCH;
        let mut previous = shape.factor_at(start, start);
        let mut sum = 0.0;
        for minute in 1..=1440 {
            let factor = shape.factor_at(start, start + minutes(minute));
            assert!((factor - previous).abs() < 0.01, "jump at minute {minute}");
            assert!((1.0..=3.0).contains(&factor));
            sum += factor;
            previous = factor;
        }
        assert!((sum / 1440.0 - 2.0).abs() < 1e-9);
    }

    #[test]
    fn validation_names_the_problem() {
        let cases = [
            (RateShape::Diurnal { peak_hour: 24.0, factor: 2.0 }, "0 ≤ h < 24"),
            (RateShape::Diurnal { peak_hour: -1.0, factor: 2.0 }, "0 ≤ h < 24"),
            (RateShape::Diurnal { peak_hour: 12.0, factor: 0.0 }, "positive multiplier"),
            (RateShape::Spike { at: minutes(1), factor: f64::NAN, duration: minutes(1) }, "multiplier ≥ 0"),
            (
                RateShape::Spike { at: minutes(1), factor: 2.0, duration: SimDuration::ZERO },
                "longer than zero",
            ),
        ];
        for (shape, words) in cases {
            let error = shape.validate().expect_err(&format!("{shape:?}")).to_string();
            assert!(error.contains(words), "{shape:?}: {error}");
        }
        assert_eq!(
            RateShape::Spike { at: SimDuration::ZERO, factor: 0.0, duration: minutes(5) }.validate(),
            Ok(())
        );
    }

    #[test]
    fn reads_durations_as_text() {
        let json = r#"{"Spike":{"at":"2h","factor":10,"duration":"15m"}}"#;
        let shape: RateShape = serde_json::from_str(json).unwrap();
        assert_eq!(shape, RateShape::Spike { at: minutes(120), factor: 10.0, duration: minutes(15) });
        assert_eq!(
            serde_json::to_string(&shape).unwrap(),
            r#"{"Spike":{"at":"2h","factor":10.0,"duration":"15m"}}"#
        );
    }
}
