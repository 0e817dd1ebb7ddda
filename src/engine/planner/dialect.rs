//! How each store writes the conditions a plan would send. The planner decides *what* a read
//! tests — a field equal to a value, at least a value, between two, starting with a prefix,
//! containing a word — as a list of [`Term`]s; this module alone decides how the store's own
//! language spells them, by the profile's [`Language`]: DynamoDB's key condition and filter
//! expressions (`PK = :pk AND begins_with(SK, :prefix)`), CQL's bound `WHERE` clauses
//! (`user_id = ? AND sent_at >= ?`), MongoDB's query filter document and sort
//! (`{PK: :pk, SK: {$gte: :from}} sort {SK: -1}`), and the `WHERE` and `ORDER BY` clauses of a
//! Cosmos DB for NoSQL query over its container's items (`c.PK = @pk AND STARTSWITH(c.SK,
//! @prefix) ORDER BY c.SK DESC`).
//!
//! What the terms name is the planner's business, not the dialect's: a CQL key is typed
//! columns, one per slot, where the other stores test the generic key attribute (`PK`, `SK`)
//! that holds the whole key as text ([`Language::key_columns`]).

use crate::engine::profile::Language;

/// One test on one field (an attribute, a key attribute or a CQL column) against the values a
/// request binds. A value is named by its placeholder (`pk`, `from`, `prefix`, an attribute's
/// own name); CQL binds every value to `?` by position and ignores the name, Cosmos DB names
/// it as a parameter (`@pk`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    pub field: String,
    pub test: Test,
}

/// What a [`Term`] asks of its field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Test {
    /// Equal to the value.
    Equals(String),
    /// At least the value: a range open at its upper end (`the last 7d`, newest first).
    AtLeast(String),
    /// Between the two values, both included.
    Between(String, String),
    /// Starts with the value.
    Prefix(String),
    /// Contains the value anywhere: a word inside a text, which no key can test.
    Contains(String),
}

impl Term {
    pub fn new(field: impl Into<String>, test: Test) -> Term {
        Term { field: field.into(), test }
    }

    /// `field = :value`.
    pub fn equals(field: impl Into<String>, value: impl Into<String>) -> Term {
        Term::new(field, Test::Equals(value.into()))
    }
}

/// A key condition: the terms on the key, and the field a read orders by when it reads in
/// descending order (newest or highest first).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeyCondition {
    pub terms: Vec<Term>,
    pub descending_by: Option<String>,
}

impl Language {
    /// Whether a key condition names the key's own columns, one per template slot (CQL: a
    /// Cassandra primary key is typed columns), rather than the one key attribute that holds
    /// the key as text (DynamoDB's `PK`/`SK`, and the same fields in a Cosmos DB item or a
    /// MongoDB document).
    pub fn key_columns(self) -> bool {
        self == Language::Cql
    }

    /// A key condition in this language. MongoDB and Cosmos DB write the order beside it: a
    /// find asks for descending order with a sort document ("cursor.sort()", MongoDB manual),
    /// a Cosmos DB query with its `ORDER BY` clause ("ORDER BY (NoSQL query)"), where
    /// DynamoDB's `ScanIndexForward` and CQL's `ORDER BY` are parameters the plan's words name.
    pub fn key_condition(self, key: &KeyCondition) -> Option<String> {
        let filter = self.filter(&key.terms)?;
        match (self, &key.descending_by) {
            (Language::MongoDb, Some(field)) => Some(format!("{filter} sort {{{field}: -1}}")),
            (Language::CosmosNoSql, Some(field)) => {
                Some(format!("{filter}{ORDER_BY}{} DESC", cosmos_path(field)))
            }
            _ => Some(filter),
        }
    }

    /// A Cosmos DB query's whole condition from a key condition and a filter this language
    /// wrote: one `WHERE` clause tests both, as the query language has no separate filter, and
    /// the key condition's `ORDER BY` ends it. `None` in the other languages, which send the
    /// two apart (DynamoDB's `KeyConditionExpression` and `FilterExpression`).
    pub fn one_clause(self, key: Option<&str>, filter: Option<&str>) -> Option<String> {
        if self != Language::CosmosNoSql {
            return None;
        }
        let (key, order) = match key.map(|k| k.split_once(ORDER_BY).map_or((k, None), |(k, o)| (k, Some(o))))
        {
            Some((k, o)) => (Some(k), o),
            None => (None, None),
        };
        let clauses: Vec<&str> = key.into_iter().chain(filter).collect();
        if clauses.is_empty() {
            return None;
        }
        let order = order.map_or(String::new(), |o| format!("{ORDER_BY}{o}"));
        Some(format!("{}{order}", clauses.join(" AND ")))
    }

    /// The terms as one condition in this language (`None`: no term, nothing to test).
    pub fn filter(self, terms: &[Term]) -> Option<String> {
        if terms.is_empty() {
            return None;
        }
        Some(match self {
            Language::DynamoDbApi => terms.iter().map(expression).collect::<Vec<_>>().join(" AND "),
            Language::CosmosNoSql => terms.iter().map(cosmos).collect::<Vec<_>>().join(" AND "),
            Language::Cql => terms.iter().map(cql).collect::<Vec<_>>().join(" AND "),
            Language::MongoDb => {
                let fields: Vec<String> =
                    terms.iter().map(|t| format!("{}: {}", t.field, mongo(&t.test))).collect();
                format!("{{{}}}", fields.join(", "))
            }
        })
    }
}

/// A term in DynamoDB's condition expressions (key conditions and filters alike).
fn expression(term: &Term) -> String {
    let f = &term.field;
    match &term.test {
        Test::Equals(v) => format!("{f} = :{v}"),
        Test::AtLeast(v) => format!("{f} >= :{v}"),
        Test::Between(a, b) => format!("{f} BETWEEN :{a} AND :{b}"),
        Test::Prefix(v) => format!("begins_with({f}, :{v})"),
        Test::Contains(v) => format!("contains({f}, :{v})"),
    }
}

/// A term of a CQL `WHERE` clause, its values bound by position. CQL has no prefix operator on
/// a clustering column: a prefix is the half-open range from it to the next string after it.
fn cql(term: &Term) -> String {
    let f = &term.field;
    match &term.test {
        Test::Equals(_) => format!("{f} = ?"),
        Test::AtLeast(_) => format!("{f} >= ?"),
        Test::Between(..) => format!("{f} >= ? AND {f} <= ?"),
        Test::Prefix(_) => format!("{f} >= ? AND {f} < ?"),
        Test::Contains(_) => format!("{f} LIKE ?"),
    }
}

/// What separates a Cosmos DB key condition from its order.
const ORDER_BY: &str = " ORDER BY ";

/// A term of a Cosmos DB for NoSQL query's `WHERE` clause over the container's items (`c`),
/// its values bound as named parameters ("Parameterized queries"). A prefix is `STARTSWITH`,
/// which a range index serves; a word anywhere is `CONTAINS`, which reads every value of the
/// property ("String system functions"). Range bounds are `>=` and `BETWEEN`, both inclusive
/// ("Keywords in Azure Cosmos DB for NoSQL").
fn cosmos(term: &Term) -> String {
    let f = cosmos_path(&term.field);
    let value = |v: &str| format!("@{v}");
    match &term.test {
        Test::Equals(v) => format!("{f} = {}", value(v)),
        Test::AtLeast(v) => format!("{f} >= {}", value(v)),
        Test::Between(a, b) => format!("{f} BETWEEN {} AND {}", value(a), value(b)),
        Test::Prefix(v) => format!("STARTSWITH({f}, {})", value(v)),
        Test::Contains(v) => format!("CONTAINS({f}, {})", value(v)),
    }
}

/// A property of the query's item: `c.name` for a plain name, `c["name"]` for one the dot
/// cannot reach — a name that is not an identifier, or one of the query language's reserved
/// keywords ("Keywords in Azure Cosmos DB for NoSQL"; a property's name may be any string,
/// "Working with JSON in Azure Cosmos DB for NoSQL").
fn cosmos_path(field: &str) -> String {
    const RESERVED: [&str; 33] = [
        "AND", "ARRAY", "AS", "ASC", "BETWEEN", "BY", "CASE", "CAST", "CROSS", "DESC", "DISTINCT", "ELSE",
        "END", "ESCAPE", "EXISTS", "FALSE", "FOR", "FROM", "GROUP", "IN", "JOIN", "LIKE", "LIMIT", "NOT",
        "NULL", "OFFSET", "OR", "ORDER", "SELECT", "TOP", "TRUE", "VALUE", "WHERE",
    ];
    let mut chars = field.chars();
    let identifier = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if identifier && !RESERVED.iter().any(|k| k.eq_ignore_ascii_case(field)) {
        format!("c.{field}")
    } else {
        let escaped = field.replace('\\', "\\\\").replace('"', "\\\"");
        format!("c[\"{escaped}\"]")
    }
}

/// A field's value in a MongoDB query filter document. A prefix is a case-sensitive regular
/// expression anchored with `^`: MongoDB builds an index range from such a "prefix expression"
/// and matches only the index keys inside it, where an unanchored one (a word anywhere)
/// examines every key (MongoDB manual, "$regex", Index Use).
fn mongo(test: &Test) -> String {
    match test {
        Test::Equals(v) => format!(":{v}"),
        Test::AtLeast(v) => format!("{{$gte: :{v}}}"),
        Test::Between(a, b) => format!("{{$gte: :{a}, $lte: :{b}}}"),
        Test::Prefix(v) => format!("/^:{v}/"),
        Test::Contains(v) => format!("/:{v}/"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(terms: Vec<Term>, descending_by: Option<&str>) -> KeyCondition {
        KeyCondition { terms, descending_by: descending_by.map(str::to_owned) }
    }

    /// Every shape of key condition the planner sends, in each language: DynamoDB's and CQL's
    /// as keyheat has always written them, Cosmos DB's as a query's `WHERE` and `ORDER BY`,
    /// MongoDB's as a query filter and sort.
    #[test]
    fn each_language_writes_each_key_condition_shape() {
        let pk = || Term::equals("PK", "pk");
        let cases: Vec<(&str, KeyCondition, [&str; 4])> = vec![
            (
                "whole key",
                key(vec![pk(), Term::equals("SK", "sk")], None),
                [
                    "PK = :pk AND SK = :sk",
                    "PK = ? AND SK = ?",
                    "c.PK = @pk AND c.SK = @sk",
                    "{PK: :pk, SK: :sk}",
                ],
            ),
            (
                "partition, newest first",
                key(vec![Term::equals("GSI1PK", "pk")], Some("GSI1SK")),
                [
                    "GSI1PK = :pk",
                    "GSI1PK = ?",
                    "c.GSI1PK = @pk ORDER BY c.GSI1SK DESC",
                    "{GSI1PK: :pk} sort {GSI1SK: -1}",
                ],
            ),
            (
                "range from",
                key(vec![pk(), Term::new("SK", Test::AtLeast("from".into()))], None),
                [
                    "PK = :pk AND SK >= :from",
                    "PK = ? AND SK >= ?",
                    "c.PK = @pk AND c.SK >= @from",
                    "{PK: :pk, SK: {$gte: :from}}",
                ],
            ),
            (
                "between, newest first",
                key(vec![pk(), Term::new("SK", Test::Between("from".into(), "to".into()))], Some("SK")),
                [
                    "PK = :pk AND SK BETWEEN :from AND :to",
                    "PK = ? AND SK >= ? AND SK <= ?",
                    "c.PK = @pk AND c.SK BETWEEN @from AND @to ORDER BY c.SK DESC",
                    "{PK: :pk, SK: {$gte: :from, $lte: :to}} sort {SK: -1}",
                ],
            ),
            (
                "prefix",
                key(vec![pk(), Term::new("SK", Test::Prefix("prefix".into()))], None),
                [
                    "PK = :pk AND begins_with(SK, :prefix)",
                    "PK = ? AND SK >= ? AND SK < ?",
                    "c.PK = @pk AND STARTSWITH(c.SK, @prefix)",
                    "{PK: :pk, SK: /^:prefix/}",
                ],
            ),
        ];
        let languages = [Language::DynamoDbApi, Language::Cql, Language::CosmosNoSql, Language::MongoDb];
        for (shape, condition, texts) in cases {
            for (language, text) in languages.into_iter().zip(texts) {
                assert_eq!(
                    language.key_condition(&condition).as_deref(),
                    Some(text),
                    "{shape} in {language:?}"
                );
            }
        }
    }

    /// A filter's terms: the inputs a key does not apply, a range, a word search.
    #[test]
    fn each_language_writes_each_filter_shape() {
        let cases: Vec<(&str, Vec<Term>, [&str; 4])> = vec![
            (
                "two equalities",
                vec![Term::equals("status", "status"), Term::equals("country", "country")],
                [
                    "status = :status AND country = :country",
                    "status = ? AND country = ?",
                    "c.status = @status AND c.country = @country",
                    "{status: :status, country: :country}",
                ],
            ),
            (
                "since",
                vec![Term::new("sent_at", Test::AtLeast("from".into()))],
                ["sent_at >= :from", "sent_at >= ?", "c.sent_at >= @from", "{sent_at: {$gte: :from}}"],
            ),
            (
                "prefix",
                vec![Term::new("name", Test::Prefix("prefix".into()))],
                [
                    "begins_with(name, :prefix)",
                    "name >= ? AND name < ?",
                    "STARTSWITH(c.name, @prefix)",
                    "{name: /^:prefix/}",
                ],
            ),
            (
                "word",
                vec![
                    Term::equals("channel_id", "channel_id"),
                    Term::new("body", Test::Contains("word".into())),
                ],
                [
                    "channel_id = :channel_id AND contains(body, :word)",
                    "channel_id = ? AND body LIKE ?",
                    "c.channel_id = @channel_id AND CONTAINS(c.body, @word)",
                    "{channel_id: :channel_id, body: /:word/}",
                ],
            ),
        ];
        for (shape, terms, [dynamodb, cql, cosmos, mongodb]) in cases {
            assert_eq!(Language::DynamoDbApi.filter(&terms).as_deref(), Some(dynamodb), "{shape}");
            assert_eq!(Language::Cql.filter(&terms).as_deref(), Some(cql), "{shape}");
            assert_eq!(Language::CosmosNoSql.filter(&terms).as_deref(), Some(cosmos), "{shape}");
            assert_eq!(Language::MongoDb.filter(&terms).as_deref(), Some(mongodb), "{shape}");
        }
    }

    /// A property the dot cannot reach is named in brackets: a keyword, a name that is not an
    /// identifier, with `"` and `\` escaped inside the string.
    #[test]
    fn a_cosmos_property_the_dot_cannot_reach_is_bracketed() {
        // (field, path)
        let cases = [
            ("channel_id", "c.channel_id"),
            ("_ts", "c._ts"),
            ("value", "c[\"value\"]"),
            ("Order", "c[\"Order\"]"),
            ("user-id", "c[\"user-id\"]"),
            ("2fa", "c[\"2fa\"]"),
            ("say \"hi\"", "c[\"say \\\"hi\\\"\"]"),
            ("a\\b", "c[\"a\\\\b\"]"),
        ];
        for (field, path) in cases {
            assert_eq!(cosmos_path(field), path, "{field:?}");
        }
    }

    /// A Cosmos DB query tests its key and its filter in one `WHERE`, ordered last; the other
    /// languages send them apart.
    #[test]
    fn a_cosmos_query_joins_key_and_filter_before_its_order() {
        let key = Language::CosmosNoSql.key_condition(&KeyCondition {
            terms: vec![Term::equals("PK", "pk")],
            descending_by: Some("SK".into()),
        });
        let filter = Language::CosmosNoSql.filter(&[Term::new("body", Test::Contains("word".into()))]);
        // (key, filter, clause)
        let cases = [
            (
                key.as_deref(),
                filter.as_deref(),
                Some("c.PK = @pk AND CONTAINS(c.body, @word) ORDER BY c.SK DESC"),
            ),
            (key.as_deref(), None, Some("c.PK = @pk ORDER BY c.SK DESC")),
            (Some("c.PK = @pk"), filter.as_deref(), Some("c.PK = @pk AND CONTAINS(c.body, @word)")),
            (None, filter.as_deref(), Some("CONTAINS(c.body, @word)")),
            (None, None, None),
        ];
        for (key, filter, clause) in cases {
            assert_eq!(
                Language::CosmosNoSql.one_clause(key, filter).as_deref(),
                clause,
                "{key:?} {filter:?}"
            );
        }
        for language in [Language::DynamoDbApi, Language::Cql, Language::MongoDb] {
            assert_eq!(language.one_clause(Some("PK = :pk"), Some("x = :x")), None, "{language:?}");
        }
    }

    #[test]
    fn no_terms_is_no_condition_and_no_sort_alone() {
        for language in [Language::DynamoDbApi, Language::Cql, Language::CosmosNoSql, Language::MongoDb] {
            assert_eq!(language.filter(&[]), None, "{language:?}");
            assert_eq!(language.key_condition(&key(Vec::new(), Some("SK"))), None, "{language:?}");
        }
    }
}
