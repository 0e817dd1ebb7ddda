//! Simulator tests that span modules: the compact table against the reference store, and the
//! bundled scenarios' figures.

mod equivalence;
