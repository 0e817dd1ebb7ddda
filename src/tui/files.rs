//! Writing files from the UI without ever clobbering one silently: a new file is created only if
//! it does not exist (checked by the OS, not by a race-prone look first), and writing over an
//! existing file or a bundled scenario's source takes an explicit yes.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::scenario::BUNDLED;

#[derive(Debug)]
pub enum WriteError {
    /// The file exists; ask before writing over it.
    Exists {
        bundled: bool,
    },
    Io(io::Error),
}

/// Whether `path` is the source file of a bundled scenario (in this source tree or relative to
/// the working directory).
pub fn is_bundled_source(path: &Path) -> bool {
    let Ok(target) = fs::canonicalize(path) else { return false };
    BUNDLED.iter().any(|(_, file, _)| {
        let candidates = [PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(file), PathBuf::from(file)];
        candidates.iter().any(|c| fs::canonicalize(c).is_ok_and(|c| c == target))
    })
}

/// Writes `bytes` to `path`: only to a new file unless `overwrite`, and never over a bundled
/// scenario's source unless `overwrite`.
pub fn write(path: &Path, bytes: &[u8], overwrite: bool) -> Result<(), WriteError> {
    if !overwrite && is_bundled_source(path) {
        return Err(WriteError::Exists { bundled: true });
    }
    let mut options = OpenOptions::new();
    options.write(true);
    if overwrite {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let mut file = options.open(path).map_err(|e| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            WriteError::Exists { bundled: false }
        } else {
            WriteError::Io(e)
        }
    })?;
    file.write_all(bytes).and_then(|()| file.flush()).map_err(WriteError::Io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_writes_over_a_file_without_leave() {
        let dir = std::env::temp_dir().join(format!("keyheat-files-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.ron");
        write(&path, b"one", false).unwrap();
        assert!(matches!(write(&path, b"two", false), Err(WriteError::Exists { bundled: false })));
        assert_eq!(fs::read_to_string(&path).unwrap(), "one");
        write(&path, b"two", true).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "two");
        assert!(matches!(write(&dir.join("no/such/dir.ron"), b"x", false), Err(WriteError::Io(_))));
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn knows_the_bundled_sources() {
        let sensors = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/sensors.ron");
        assert!(is_bundled_source(&sensors));
        assert!(matches!(write(&sensors, b"x", false), Err(WriteError::Exists { bundled: true })));
        assert!(!is_bundled_source(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml").as_path()));
    }
}
