//! The scenario file format (RON) and its loading into [`crate::engine::model`].

pub mod source_map;
