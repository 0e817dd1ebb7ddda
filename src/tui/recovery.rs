//! Unsaved edits survive a quit: the edited scenario's text and every unapplied draft go to a
//! recovery file under the state directory, one per scenario, and are offered back the next time
//! that scenario opens. Written to a temporary file and renamed, so a crash mid-write leaves the
//! previous recovery intact.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::hash::hash_bytes;

/// What a session left unsaved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recovery {
    /// The scenario it belongs to (see [`origin_key`]).
    pub origin: String,
    /// The scenario's text with every applied edit.
    pub source: String,
    /// Unapplied editor drafts: (variant index, text).
    pub drafts: Vec<(usize, String)>,
    /// `source` is what the session last wrote to a file (`w`): its applied edits are saved,
    /// only the drafts are not. Absent in older recovery files.
    #[serde(default)]
    pub source_saved: bool,
}

/// Where state goes: `$KEYHEAT_STATE_DIR`, else `$XDG_STATE_HOME/keyheat`, else
/// `$HOME/.local/state/keyheat` (XDG Base Directory spec); `None` when none is set.
pub fn state_dir(var: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    set("KEYHEAT_STATE_DIR")
        .or_else(|| set("XDG_STATE_HOME").map(|d| d.join("keyheat")))
        .or_else(|| set("HOME").map(|h| h.join(".local/state/keyheat")))
}

/// A stable name for a scenario: `bundled:sensors`, or `file:` and the canonical path.
pub fn origin_key(bundled: Option<&str>, path: &Path) -> String {
    match bundled {
        Some(name) => format!("bundled:{name}"),
        None => format!("file:{}", fs::canonicalize(path).unwrap_or_else(|_| path.to_owned()).display()),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecoveryStore {
    dir: PathBuf,
}

impl RecoveryStore {
    pub fn new(dir: PathBuf) -> RecoveryStore {
        RecoveryStore { dir }
    }

    /// The file for a scenario: readable name plus a hash of the full key (two files named
    /// `orders.ron` in different folders do not collide).
    pub fn path(&self, origin: &str) -> PathBuf {
        let stem: String = origin
            .rsplit(['/', ':', '\\'])
            .next()
            .unwrap_or("scenario")
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' })
            .take(40)
            .collect();
        self.dir.join(format!("recovery-{stem}-{:016x}.json", hash_bytes(origin.as_bytes())))
    }

    pub fn save(&self, recovery: &Recovery) -> io::Result<PathBuf> {
        fs::create_dir_all(&self.dir)?;
        let path = self.path(&recovery.origin);
        let tmp = path.with_extension("json.tmp");
        let json = serde_json::to_vec_pretty(recovery).map_err(io::Error::other)?;
        fs::write(&tmp, json)?;
        fs::rename(&tmp, &path)?;
        Ok(path)
    }

    /// The recovery for `origin`, if one was left; an unreadable one is an error to show.
    pub fn load(&self, origin: &str) -> Option<Result<Recovery, String>> {
        let path = self.path(origin);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return None,
            Err(e) => return Some(Err(format!("cannot read {}: {e}", path.display()))),
        };
        Some(
            serde_json::from_str::<Recovery>(&text)
                .map_err(|e| format!("{} is not a recovery file: {e}", path.display()))
                .and_then(|r| {
                    if r.origin == origin {
                        Ok(r)
                    } else {
                        Err(format!("{} belongs to {}", path.display(), r.origin))
                    }
                }),
        )
    }

    pub fn discard(&self, origin: &str) -> io::Result<()> {
        match fs::remove_file(self.path(origin)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_dir_follows_the_override_then_xdg_then_home() {
        type Env = &'static [(&'static str, &'static str)];
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| OsString::from(v))
        };
        let cases: [(Env, Option<&str>); 5] = [
            (&[("KEYHEAT_STATE_DIR", "/t"), ("XDG_STATE_HOME", "/x"), ("HOME", "/h")], Some("/t")),
            (&[("XDG_STATE_HOME", "/x"), ("HOME", "/h")], Some("/x/keyheat")),
            (&[("XDG_STATE_HOME", ""), ("HOME", "/h")], Some("/h/.local/state/keyheat")),
            (&[("HOME", "/h")], Some("/h/.local/state/keyheat")),
            (&[], None),
        ];
        for (pairs, want) in cases {
            assert_eq!(state_dir(env(pairs)), want.map(PathBuf::from), "{pairs:?}");
        }
    }

    #[test]
    fn saves_loads_and_discards() {
        let dir = std::env::temp_dir().join(format!("keyheat-recovery-test-{}", std::process::id()));
        let store = RecoveryStore::new(dir.clone());
        let origin = "bundled:sensors";
        assert_eq!(store.load(origin), None);
        let r = Recovery {
            origin: origin.to_owned(),
            source: "(x)".to_owned(),
            drafts: vec![(1, "(y".to_owned())],
            source_saved: false,
        };
        let path = store.save(&r).unwrap();
        assert!(path.file_name().unwrap().to_string_lossy().starts_with("recovery-sensors-"));
        assert_eq!(store.load(origin), Some(Ok(r)));
        assert_eq!(store.load("bundled:orders"), None);
        fs::write(&path, "{not json").unwrap();
        assert!(store.load(origin).unwrap().unwrap_err().contains("not a recovery file"));
        store.discard(origin).unwrap();
        store.discard(origin).unwrap();
        assert_eq!(store.load(origin), None);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn files_in_different_folders_get_different_recoveries() {
        let store = RecoveryStore::new(PathBuf::from("/s"));
        assert_ne!(store.path("file:/a/orders.ron"), store.path("file:/b/orders.ron"));
        assert!(store.path("file:/a/orders.ron").to_string_lossy().contains("recovery-orders_ron-"));
    }
}
