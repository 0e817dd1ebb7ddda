//! `--out FILE`: a report lands whole or not at all. It is written to a temporary file in the
//! same directory and renamed over the target, so a reader never sees half a report and a failed
//! write leaves the old file as it was. Parent directories are not created: a missing one is a
//! clear error, found before a long run starts.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Why a report could not be written to its file.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("cannot write {path}: the directory {dir} does not exist (keyheat does not create it)")]
    NoDirectory { path: String, dir: String },
    #[error("cannot write {path}: it is a directory")]
    IsDirectory { path: String },
    #[error("cannot write {path}: {source}")]
    Io { path: String, source: io::Error },
}

fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Checks that `path` can be a report file: its directory exists and it is not a directory.
pub fn check(path: &Path) -> Result<(), OutputError> {
    let dir = directory_of(path);
    if !dir.is_dir() {
        return Err(OutputError::NoDirectory {
            path: path.display().to_string(),
            dir: dir.display().to_string(),
        });
    }
    if path.is_dir() {
        return Err(OutputError::IsDirectory { path: path.display().to_string() });
    }
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    check(path)?;
    let io_error = |source| OutputError::Io { path: path.display().to_string(), source };
    let temp = temporary_path(path);
    let written = (|| {
        let mut file = OpenOptions::new().write(true).create_new(true).open(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temp, path)
    })();
    if let Err(e) = written {
        // The temporary file is ours and unfinished; the target was never touched.
        let _ = fs::remove_file(&temp);
        return Err(io_error(e));
    }
    Ok(())
}

/// `dir/.NAME.keyheat-PID.tmp`: hidden, beside the target (a rename within one filesystem is
/// atomic), and distinct per process.
fn temporary_path(path: &Path) -> PathBuf {
    let name = path.file_name().map_or_else(|| "report".into(), |n| n.to_string_lossy().into_owned());
    directory_of(path).join(format!(".{name}.keyheat-{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("keyheat-output-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn replaces_the_file_whole_and_leaves_no_temporary() {
        let dir = scratch("replace");
        let path = dir.join("report.json");
        fs::write(&path, "old").unwrap();
        write_atomically(&path, b"{\"new\": true}\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"new\": true}\n");
        let names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["report.json"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_directory_is_an_error_that_names_it() {
        let dir = scratch("missing");
        let path = dir.join("nope").join("report.md");
        let err = write_atomically(&path, b"x").unwrap_err();
        assert!(matches!(err, OutputError::NoDirectory { .. }), "{err}");
        assert!(err.to_string().contains("nope") && err.to_string().contains("does not exist"), "{err}");
        assert!(!path.exists());
        let err = check(&dir).unwrap_err();
        assert!(err.to_string().ends_with("it is a directory"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bare_file_name_lands_in_the_current_directory() {
        assert_eq!(directory_of(Path::new("report.md")), Path::new("."));
        assert_eq!(temporary_path(Path::new("out/r.md")).parent(), Some(Path::new("out")));
    }
}
