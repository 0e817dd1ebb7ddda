//! Store rules that need parsed expressions: conditions, filters, updates, projections.
