//! Finding a table's data files and streaming their items.
//!
//! Three inputs, told apart by what they hold, not by their names:
//! - a DynamoDB export to S3 in DynamoDB JSON, downloaded: a directory with
//!   `manifest-summary.json`, `manifest-files.json` (one JSON line per data file, naming it by
//!   `dataFileS3Key`) and `data/*.json.gz`;
//! - loose files (`.json`, `.json.gz`) of `{"Item": {…}}` lines, one file or a directory of them;
//! - the output of `aws dynamodb scan`: one document `{"Items": [{…}, …], "Count": …}`.
//!
//! A file is gzip when it starts with gzip's magic bytes, whatever its name. A file whose first
//! key is `"Item"` is read line by line (a line's number is the file's); anything else is read as
//! documents by a serde visitor that hands over each element of `Items` as it arrives, so the
//! array is never held whole. Either way an item is converted by the store's
//! `item_from_json` and dropped once the caller has sized it.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use flate2::read::MultiGzDecoder;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value as Json;

use super::AnalyzeError;
use crate::engine::value::{AttributeValue, Item, item_from_json};

/// Where an item came from: its file and the line its text ends on (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub file: Rc<str>,
    pub line: u64,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// What was read, for the report.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SourceInfo {
    pub path: String,
    pub layout: Layout,
    /// The table's name, when an export's manifest gives it.
    pub table: Option<String>,
    pub files: usize,
    /// Bytes of the input files as stored (compressed, for gzip).
    pub bytes: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// A DynamoDB export to S3 (manifest files and data/).
    Export,
    /// Files or a directory of files (`{"Item"}` lines or `aws dynamodb scan` output).
    Files,
}

/// The files to read, found before any is read.
#[derive(Debug)]
pub struct Source {
    pub info: SourceInfo,
    pub files: Vec<PathBuf>,
    /// What the input said that the report should repeat (a count the manifest gives, say).
    pub notes: Vec<String>,
    /// The item count the export's manifest gives, checked against what was read.
    manifest_items: Option<u64>,
}

/// `manifest-summary.json`: the fields keyheat reads (AWS developer guide, "DynamoDB data export
/// to Amazon S3: output format").
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Summary {
    #[serde(default)]
    table_arn: Option<String>,
    #[serde(default)]
    item_count: Option<u64>,
    #[serde(default)]
    output_format: Option<String>,
    #[serde(default)]
    export_type: Option<String>,
}

/// One line of `manifest-files.json`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DataFile {
    data_file_s3_key: String,
}

fn io_error(path: &Path) -> impl Fn(io::Error) -> AnalyzeError + '_ {
    move |error| AnalyzeError::Io { path: path.display().to_string(), error }
}

impl Source {
    pub fn discover(path: &Path) -> Result<Source, AnalyzeError> {
        let meta = fs::metadata(path).map_err(io_error(path))?;
        let (files, layout, table, manifest_items, notes) = if meta.is_dir() {
            if path.join("manifest-summary.json").is_file() {
                let (files, table, items, notes) = export_files(path)?;
                (files, Layout::Export, table, items, notes)
            } else {
                (loose_files(path)?, Layout::Files, None, None, Vec::new())
            }
        } else {
            (vec![path.to_path_buf()], Layout::Files, None, None, Vec::new())
        };
        if files.is_empty() {
            return Err(AnalyzeError::NoFiles { path: path.display().to_string() });
        }
        let mut bytes = 0;
        for file in &files {
            bytes += fs::metadata(file).map_err(io_error(file))?.len();
        }
        let info = SourceInfo { path: path.display().to_string(), layout, table, files: files.len(), bytes };
        Ok(Source { info, files, notes, manifest_items })
    }

    /// Hands every item to `on_item` with its place and the input bytes read so far, in file
    /// order. The first error, the reader's or `on_item`'s, stops the read.
    pub fn items(
        &mut self,
        on_item: &mut dyn FnMut(Item, &Place, u64) -> Result<(), AnalyzeError>,
    ) -> Result<(), AnalyzeError> {
        let read = Rc::new(Cell::new(0u64));
        let mut count = 0u64;
        for path in &self.files {
            let name: Rc<str> = Rc::from(path.display().to_string());
            let file = File::open(path).map_err(io_error(path))?;
            let counted = Counted { inner: file, read: Rc::clone(&read) };
            let mut counting = |item: Item, place: &Place| {
                count += 1;
                on_item(item, place, read.get())
            };
            read_file(&name, counted, &mut counting)?;
        }
        if let Some(expected) = self.manifest_items.filter(|&n| n != count) {
            self.notes.push(format!(
                "the export's manifest-summary.json gives {expected} items; its data files hold {count}"
            ));
        }
        Ok(())
    }
}

/// The data files an export's manifest lists, the table's name, the item count it gives.
type Export = (Vec<PathBuf>, Option<String>, Option<u64>, Vec<String>);

fn export_files(dir: &Path) -> Result<Export, AnalyzeError> {
    let summary_path = dir.join("manifest-summary.json");
    let text = fs::read_to_string(&summary_path).map_err(io_error(&summary_path))?;
    let manifest =
        |message: String| AnalyzeError::Manifest { file: summary_path.display().to_string(), message };
    let summary: Summary = serde_json::from_str(&text).map_err(|e| {
        manifest(format!("{e} (expected the export's summary: tableArn, itemCount, outputFormat…)"))
    })?;
    if let Some(format) = summary.output_format.as_deref().filter(|f| *f != "DYNAMODB_JSON") {
        return Err(manifest(format!(
            "outputFormat is {format}; keyheat reads exports in DYNAMODB_JSON (export the table again with --export-format DYNAMODB_JSON)"
        )));
    }
    if let Some(kind) = summary.export_type.as_deref().filter(|k| *k == "INCREMENTAL_EXPORT") {
        return Err(manifest(format!(
            "exportType is {kind}: an incremental export holds changes, not the table; analyze a full export"
        )));
    }
    let table =
        summary.table_arn.as_deref().and_then(|arn| arn.rsplit_once("table/")).map(|(_, t)| t.to_owned());
    let mut notes = Vec::new();
    let list = dir.join("manifest-files.json");
    let files = if list.is_file() {
        let text = fs::read_to_string(&list).map_err(io_error(&list))?;
        let mut files = Vec::new();
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let line_no = i as u64 + 1;
            let entry: DataFile = serde_json::from_str(line).map_err(|e| AnalyzeError::Json {
                file: list.display().to_string(),
                line: line_no,
                column: e.column() as u64,
                message: format!(
                    "{} (expected {{\"dataFileS3Key\": \"…/data/….json.gz\", …}})",
                    strip_position(&e)
                ),
            })?;
            files.push(data_file(dir, &entry.data_file_s3_key).ok_or_else(|| AnalyzeError::Manifest {
                file: format!("{}:{line_no}", list.display()),
                message: format!(
                    "data file {} is not in {} (looked for data/{})",
                    entry.data_file_s3_key,
                    dir.display(),
                    file_name(&entry.data_file_s3_key)
                ),
            })?);
        }
        files
    } else {
        notes.push("the export has no manifest-files.json: every file in data/ was read".to_owned());
        loose_files(&dir.join("data"))?
    };
    Ok((files, table, summary.item_count, notes))
}

fn file_name(key: &str) -> &str {
    key.rsplit('/').next().unwrap_or(key)
}

/// A manifest's S3 key as a local file: the key under the export's directory as downloaded
/// (`AWSDynamoDB/<id>/data/x.json.gz` → `data/x.json.gz`), or the key as it stands.
fn data_file(dir: &Path, key: &str) -> Option<PathBuf> {
    let local = dir.join("data").join(file_name(key));
    if local.is_file() {
        return Some(local);
    }
    let whole = dir.join(key);
    whole.is_file().then_some(whole)
}

/// What a data file's name ends with, in any case.
const DATA_SUFFIXES: [&str; 2] = [".json", ".json.gz"];

/// The `.json` and `.json.gz` files in `dir` (not below it), by name.
fn loose_files(dir: &Path) -> Result<Vec<PathBuf>, AnalyzeError> {
    let entries = fs::read_dir(dir).map_err(io_error(dir))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(io_error(dir))?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
        let data = DATA_SUFFIXES.iter().any(|suffix| name.ends_with(suffix));
        if data && !name.starts_with("manifest-") && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// A reader that counts the bytes it hands on into a shared cell (the progress: bytes of the
/// file as stored, before any decompression).
struct Counted<R> {
    inner: R,
    read: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

/// How many bytes of a file are looked at to tell what it holds.
const PEEK: usize = 4096;

/// Reads one file's items, gzip or plain, lines or documents.
pub fn read_file(
    name: &Rc<str>,
    raw: impl Read,
    on_item: &mut dyn FnMut(Item, &Place) -> Result<(), AnalyzeError>,
) -> Result<(), AnalyzeError> {
    let mut raw = BufReader::with_capacity(1 << 16, raw);
    let head = raw.fill_buf().map_err(|error| AnalyzeError::Io { path: name.to_string(), error })?;
    let gzip = head.starts_with(&[0x1f, 0x8b]);
    let body: Box<dyn Read> = if gzip { Box::new(MultiGzDecoder::new(raw)) } else { Box::new(raw) };
    let mut body = Peeked::new(body, gzip, name)?;
    if first_key(&body.head).as_deref() == Some("Item") {
        read_lines(name, BufReader::with_capacity(1 << 16, body), gzip, on_item)
    } else {
        read_documents(name, &mut body, gzip, on_item)
    }
}

/// The first bytes of a stream, read ahead and then handed on again before the rest.
struct Peeked<'a> {
    head: Vec<u8>,
    at: usize,
    rest: Box<dyn Read + 'a>,
}

impl<'a> Peeked<'a> {
    fn new(mut rest: Box<dyn Read + 'a>, gzip: bool, name: &str) -> Result<Peeked<'a>, AnalyzeError> {
        let mut head = Vec::with_capacity(PEEK);
        (&mut rest).take(PEEK as u64).read_to_end(&mut head).map_err(|e| read_error(name, gzip, e))?;
        Ok(Peeked { head, at: 0, rest })
    }
}

impl Read for Peeked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at < self.head.len() {
            let n = buf.len().min(self.head.len() - self.at);
            buf[..n].copy_from_slice(&self.head[self.at..self.at + n]);
            self.at += n;
            return Ok(n);
        }
        self.rest.read(buf)
    }
}

/// An I/O error while reading a file: a corrupt or truncated gzip stream says so.
fn read_error(name: &str, gzip: bool, error: io::Error) -> AnalyzeError {
    if gzip
        && matches!(
            error.kind(),
            io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof
        )
    {
        AnalyzeError::Gzip { file: name.to_owned(), error }
    } else {
        AnalyzeError::Io { path: name.to_owned(), error }
    }
}

/// The first key of the JSON object `text` starts with, if it starts with one.
fn first_key(text: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(text)
        .unwrap_or_else(|e| std::str::from_utf8(&text[..e.valid_up_to()]).unwrap_or_default());
    let rest = text.trim_start().strip_prefix('{')?.trim_start().strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_owned())
}

/// A line of an export: `{"Item": {…}}` and nothing else.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    #[serde(rename = "Item")]
    item: Json,
}

fn read_lines(
    name: &Rc<str>,
    mut input: impl BufRead,
    gzip: bool,
    on_item: &mut dyn FnMut(Item, &Place) -> Result<(), AnalyzeError>,
) -> Result<(), AnalyzeError> {
    let mut line = Vec::new();
    let mut number = 0u64;
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line).map_err(|e| read_error(name, gzip, e))? == 0 {
            return Ok(());
        }
        number += 1;
        let text = line.trim_ascii();
        if text.is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_ascii_start().len();
        let parsed: Line = serde_json::from_slice(text).map_err(|e| AnalyzeError::Json {
            file: name.to_string(),
            line: number,
            column: (e.column() + indent) as u64,
            message: format!(
                "{}; expected one item per line, {{\"Item\": {{\"PK\": {{\"S\": \"…\"}}, …}}}}, as a DynamoDB export writes",
                strip_position(&e)
            ),
        })?;
        let place = Place { file: Rc::clone(name), line: number };
        let item = to_item(&parsed.item).map_err(|message| AnalyzeError::Item {
            file: name.to_string(),
            line: number,
            message,
        })?;
        on_item(item, &place)?;
    }
}

/// An item in DynamoDB JSON, or what is wrong with it, naming the attribute at fault.
pub fn to_item(json: &Json) -> Result<Item, String> {
    item_from_json(json).map_err(|error| {
        let culprit = json.as_object().and_then(|attributes| {
            attributes
                .iter()
                .find(|(_, value)| AttributeValue::from_json(value).is_err())
                .map(|(name, _)| name)
        });
        match culprit {
            Some(name) => format!("attribute {name:?}: {error}"),
            None => error.to_string(),
        }
    })
}

/// serde_json's message without its " at line L column C" (the caller places it).
fn strip_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    text.strip_suffix(&position).unwrap_or(&text).to_owned()
}

/// Reads `aws dynamodb scan` output: one or more documents, each `{"Items": […], …}` (or a lone
/// `{"Item": {…}}`), streaming each element of `Items` to `on_item`.
fn read_documents(
    name: &Rc<str>,
    input: &mut Peeked<'_>,
    gzip: bool,
    on_item: &mut dyn FnMut(Item, &Place) -> Result<(), AnalyzeError>,
) -> Result<(), AnalyzeError> {
    if input.head.trim_ascii().is_empty() {
        return Ok(());
    }
    let lines = Rc::new(Cell::new(1u64));
    let counted = LineCounter { inner: BufReader::with_capacity(1 << 16, input), lines: Rc::clone(&lines) };
    let mut de = serde_json::Deserializer::from_reader(counted);
    let mut failure = None;
    loop {
        let document = Document { name, lines: &lines, on_item: &mut *on_item, failure: &mut failure };
        let read = document.deserialize(&mut de).and_then(|()| de.end());
        match read {
            Ok(()) => return Ok(()),
            // The typed error `on_item` or an item's conversion gave, which serde carried as text.
            Err(_) if failure.is_some() => {
                return Err(failure.take().unwrap_or(AnalyzeError::NoItems { path: name.to_string() }));
            }
            // Another document follows (concatenated scan outputs): `end` stopped at its first
            // byte without taking it, so the loop reads it next.
            Err(e) if is_trailing(&e) => {}
            Err(e) if e.is_io() => {
                let error = io::Error::other(strip_position(&e));
                return Err(read_error(name, gzip, io::Error::new(io_kind(&e), error)));
            }
            Err(e) => {
                return Err(AnalyzeError::Json {
                    file: name.to_string(),
                    line: e.line() as u64,
                    column: e.column() as u64,
                    message: format!(
                        "{}; expected the output of aws dynamodb scan, {{\"Items\": [{{\"PK\": {{\"S\": \"…\"}}, …}}, …], \"Count\": …}}",
                        strip_position(&e)
                    ),
                });
            }
        }
    }
}

/// serde_json's "trailing characters" after a whole document; it has no error code to match, so
/// its category and message tell.
fn is_trailing(error: &serde_json::Error) -> bool {
    error.classify() == serde_json::error::Category::Syntax
        && error.to_string().starts_with("trailing characters")
}

/// The kind of the I/O error inside a serde_json error.
fn io_kind(error: &serde_json::Error) -> io::ErrorKind {
    error.io_error_kind().unwrap_or(io::ErrorKind::Other)
}

/// Counts the newlines serde_json has consumed: it reads a byte at a time and looks one byte
/// ahead, so this is the line it is on.
struct LineCounter<R> {
    inner: R,
    lines: Rc<Cell<u64>>,
}

impl<R: Read> Read for LineCounter<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        #[allow(clippy::naive_bytecount, reason = "one count per buffer; not worth a crate")]
        let newlines = buf[..n].iter().filter(|&&b| b == b'\n').count() as u64;
        self.lines.set(self.lines.get() + newlines);
        Ok(n)
    }
}

/// One top-level document: its `Items` streamed, `Item` read, anything else skipped.
struct Document<'a, 'f> {
    name: &'a Rc<str>,
    lines: &'a Rc<Cell<u64>>,
    on_item: &'a mut dyn FnMut(Item, &Place) -> Result<(), AnalyzeError>,
    /// The error `on_item` or the item's conversion gave: serde only carries text, so the
    /// typed error waits here while serde unwinds.
    failure: &'f mut Option<AnalyzeError>,
}

impl Document<'_, '_> {
    fn item<E: de::Error>(&mut self, json: &Json) -> Result<(), E> {
        let line = self.lines.get();
        let place = Place { file: Rc::clone(self.name), line };
        let result = to_item(json)
            .map_err(|message| AnalyzeError::Item { file: self.name.to_string(), line, message })
            .and_then(|item| (self.on_item)(item, &place));
        result.map_err(|error| {
            let text = error.to_string();
            *self.failure = Some(error);
            E::custom(text)
        })
    }
}

impl<'de> DeserializeSeed<'de> for Document<'_, '_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Document<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object with \"Items\": [...] (aws dynamodb scan output) or \"Item\": {...}")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        let mut found = false;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                "Items" => {
                    found = true;
                    map.next_value_seed(Items(&mut self))?;
                }
                "Item" => {
                    found = true;
                    let json: Json = map.next_value()?;
                    self.item(&json)?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if found { Ok(()) } else { Err(de::Error::custom("no \"Items\" or \"Item\" in this object")) }
    }
}

/// The `Items` array, element by element.
struct Items<'d, 'a, 'f>(&'d mut Document<'a, 'f>);

impl<'de> DeserializeSeed<'de> for Items<'_, '_, '_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Items<'_, '_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of items in DynamoDB JSON")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(json) = seq.next_element::<Json>()? {
            self.0.item(&json)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use flate2::Compression;
    use flate2::write::GzEncoder;
    use proptest::prelude::*;

    use super::*;

    /// The (partition key, line) of every item in `bytes` read as the file `t.json`, or the error.
    fn read(bytes: &[u8]) -> Result<Vec<(String, u64)>, String> {
        let name: Rc<str> = Rc::from("t.json");
        let mut out = Vec::new();
        read_file(&name, bytes, &mut |item, place| {
            let key = item.get("PK").and_then(AttributeValue::as_key);
            let pk = key.map_or_else(|| "-".to_owned(), |k| format!("{}:{k}", k.key_type().descriptor()));
            out.push((pk, place.line));
            Ok(())
        })
        .map_err(|e| e.to_string())?;
        Ok(out)
    }

    fn pks(bytes: &[u8]) -> Vec<String> {
        read(bytes).unwrap().into_iter().map(|(pk, _)| pk).collect()
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    const LINES: &str =
        "{\"Item\":{\"PK\":{\"S\":\"A#1\"}}}\n\n  {\"Item\":{\"PK\":{\"N\":\"7\"},\"b\":{\"B\":\"AQ==\"}}}\n";
    const SCAN: &str = r#"{
    "Items": [
        {"PK": {"S": "A#1"}, "l": {"L": [{"NULL": true}, {"BOOL": false}]}},
        {"PK": {"S": "A#2"}, "m": {"M": {"ss": {"SS": ["x"]}, "ns": {"NS": ["1"]}, "bs": {"BS": ["AQ=="]}}}}
    ],
    "Count": 2,
    "ScannedCount": 2,
    "ConsumedCapacity": null
}
"#;

    #[test]
    fn reads_export_lines_and_scan_documents_gzip_or_not() {
        let lines = vec!["S:A#1".to_owned(), "N:7".to_owned()];
        assert_eq!(read(LINES.as_bytes()).unwrap().iter().map(|(_, l)| *l).collect::<Vec<_>>(), [1, 3]);
        // (input, partition keys)
        let cases: [(Vec<u8>, Vec<String>); 6] = [
            (LINES.as_bytes().to_vec(), lines.clone()),
            (gzip(LINES.as_bytes()), lines),
            (SCAN.as_bytes().to_vec(), vec!["S:A#1".to_owned(), "S:A#2".to_owned()]),
            (gzip(SCAN.as_bytes()), vec!["S:A#1".to_owned(), "S:A#2".to_owned()]),
            // Two scan outputs one after the other, keys in another order.
            (
                br#"{"Count": 1, "Items": [{"PK": {"S": "x"}}]} {"Items": [{"PK": {"S": "y"}}]}"#.to_vec(),
                vec!["S:x".to_owned(), "S:y".to_owned()],
            ),
            (b"  \n".to_vec(), vec![]),
        ];
        for (input, expected) in cases {
            assert_eq!(pks(&input), expected, "{}", String::from_utf8_lossy(&input));
        }
    }

    #[test]
    fn a_scan_item_is_placed_on_the_line_it_ends_on() {
        assert_eq!(read(SCAN.as_bytes()).unwrap().iter().map(|(_, l)| *l).collect::<Vec<_>>(), [3, 4]);
    }

    #[test]
    fn bad_input_names_the_file_line_and_column() {
        // (input, the error's start)
        let cases: [(&[u8], &str); 9] = [
            (
                b"{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n{\"Item\":{\"PK\":{\"X\":\"a\"}}}\n",
                "t.json:2: attribute \"PK\": Supplied AttributeValue has an unknown datatype \"X\"",
            ),
            (
                b"{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n{\"Items\":[]}\n",
                "t.json:2:8: unknown field `Items`, expected `Item`; expected one item per line",
            ),
            (b"{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n  {\"Item\": nope}\n", "t.json:2:13: expected ident"),
            (b"{\"Item\":{\"PK\":{\"N\":\"1e999\"}}}\n", "t.json:1: attribute \"PK\": "),
            (
                b"{\"Item\":{\"PK\":{\"S\":\"a\"}}}\n{\"Item\":[1]}\n",
                "t.json:2: Expected a JSON object of attribute name to AttributeValue",
            ),
            (
                b"{\"Items\": [{\"PK\": {\"S\": \"a\"}},\n {\"PK\": {\"BOOL\": 1}}]}",
                "t.json:2: attribute \"PK\": Expected a boolean",
            ),
            (
                b"{\"Items\": [{\"PK\": {\"S\": \"a\"}}",
                "t.json:1:29: EOF while parsing a list; expected the output of aws dynamodb scan",
            ),
            (b"[1, 2]", "t.json:1:1: invalid type: sequence, expected an object"),
            (b"{\"Count\": 3}", "t.json:1:12: no \"Items\" or \"Item\" in this object"),
        ];
        let wrong: Vec<String> = cases
            .iter()
            .filter_map(|(input, start)| {
                let error = read(input).unwrap_err();
                (!error.starts_with(start))
                    .then(|| format!("{}\n  gave {error}\n  not {start}", String::from_utf8_lossy(input)))
            })
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn a_truncated_gzip_file_is_an_error_not_a_panic() {
        let whole = gzip(LINES.repeat(50).as_bytes());
        for cut in [whole.len() - 4, whole.len() / 2, 12] {
            let error = read(&whole[..cut]).unwrap_err();
            assert!(
                error.starts_with("t.json: the gzip stream is corrupt or cut short"),
                "cut at {cut}: {error}"
            );
        }
        let mut corrupt = whole.clone();
        corrupt[20] ^= 0xff;
        assert!(read(&corrupt).is_err());
    }

    #[test]
    fn finds_the_first_key() {
        // (text, first key)
        let cases: [(&[u8], Option<&str>); 5] = [
            (b"{\"Item\": {}}", Some("Item")),
            (b"\n  {\n \"Items\": [", Some("Items")),
            (b"[]", None),
            (b"{\"It", None),
            (b"", None),
        ];
        for (text, key) in cases {
            assert_eq!(first_key(text).as_deref(), key, "{}", String::from_utf8_lossy(text));
        }
    }

    proptest! {
        #[test]
        fn no_line_makes_the_reader_panic(lines in proptest::collection::vec("\\PC{0,40}", 1..4), item in "\\PC{0,40}") {
            let text = format!("{{\"Item\": {item}}}\n{}", lines.join("\n"));
            let _ = read(text.as_bytes());
            let _ = read(lines.join("\n").as_bytes());
            let _ = read(format!("{{\"Items\": [{item}, {}]}}", lines.join(",")).as_bytes());
        }
    }
}
