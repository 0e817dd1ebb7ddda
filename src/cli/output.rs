//! Every file a command writes (`--out FILE`) goes through here, under one rule: the file lands
//! whole or not at all, and nothing that exists at the path — a file, a symlink (even a dangling
//! one), a FIFO — is replaced without `--force`. `-` means standard output.
//!
//! The bytes go to a temporary file in the same directory first. Without `--force` that file is
//! then hard-linked to the target, which fails if anything took the name meanwhile, so even a
//! race cannot clobber; with `--force` it is renamed over the target (a symlink or FIFO there is
//! replaced, not written through). A reader never sees half a file and a failed write leaves the
//! old one as it was. Parent directories are not created: a missing one is a clear error, found
//! before a long run starts.
//!
//! A device — a character or block device, or a symlink to one (`/dev/null`, a terminal) — is
//! the one exception: it holds no file to keep or replace, so the bytes are written to it, with
//! or without `--force`. Renaming over it would put a regular file in its place, and run as root
//! that would break `/dev/null` for the whole machine.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// Why a report could not be written to its file.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("cannot write {path}: the directory {dir} does not exist (keyheat does not create it)")]
    NoDirectory { path: String, dir: String },
    #[error("cannot write {path}: it is a directory")]
    IsDirectory { path: String },
    #[error("{path} exists; pass --force to replace it")]
    Exists { path: String },
    // Not `#[source]`: the message already says it, and `{:#}` would print it twice.
    #[error("cannot write {path}: {error}")]
    Io { path: String, error: io::Error },
}

/// Whether `path` is `-`, standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Checks, before any work, that `path` can be written under the rule: `-`, or a path in an
/// existing directory where nothing exists unless `force`.
pub fn check_new(path: &Path, force: bool) -> Result<(), OutputError> {
    if is_stdout(path) {
        return Ok(());
    }
    check(path)?;
    if !force && !is_device(path) && fs::symlink_metadata(path).is_ok() {
        return Err(OutputError::Exists { path: path.display().to_string() });
    }
    Ok(())
}

/// Whether `path` is a device, or a symlink to one (`/dev/null`, `/dev/tty`).
fn is_device(path: &Path) -> bool {
    fs::metadata(path)
        .is_ok_and(|meta| meta.file_type().is_char_device() || meta.file_type().is_block_device())
}

/// Writes `bytes` into the device at `path`, which stays what it is.
fn write_through(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|mut device| device.write_all(bytes).and_then(|()| device.flush()))
        .map_err(|error| OutputError::Io { path: path.display().to_string(), error })
}

/// Writes `bytes` to `path` under the rule (`-`: standard output): whole or not at all, and an
/// existing path is replaced only when `force`. The one entry point for a command's `--out`.
pub fn write_new(path: &Path, bytes: &[u8], force: bool) -> Result<(), OutputError> {
    if is_stdout(path) {
        let mut stdout = io::stdout().lock();
        return stdout
            .write_all(bytes)
            .and_then(|()| stdout.flush())
            .map_err(|error| OutputError::Io { path: "standard output".into(), error });
    }
    check_new(path, force)?;
    if is_device(path) {
        return write_through(path, bytes);
    }
    land(path, bytes, !force)
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

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename,
/// replacing whatever is there (the `--force` case of [`write_new`]).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    check(path)?;
    if is_device(path) {
        return write_through(path, bytes);
    }
    land(path, bytes, false)
}

/// The temporary file, then the target: linked (`no_clobber`: fails if the name is taken) or
/// renamed over it.
fn land(path: &Path, bytes: &[u8], no_clobber: bool) -> Result<(), OutputError> {
    let temp = temporary_path(path);
    let written = (|| {
        let mut file = OpenOptions::new().write(true).create_new(true).open(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        if no_clobber {
            fs::hard_link(&temp, path).and_then(|()| fs::remove_file(&temp))
        } else {
            fs::rename(&temp, path)
        }
    })();
    if let Err(error) = written {
        // The temporary file is ours and unfinished; the target was never touched.
        let _ = fs::remove_file(&temp);
        let path = path.display().to_string();
        return Err(if error.kind() == io::ErrorKind::AlreadyExists {
            OutputError::Exists { path }
        } else {
            OutputError::Io { path, error }
        });
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

    /// `--out /dev/null` discards the report: with or without `--force` the bytes go into the
    /// device, which stays a device (renamed over, it would be a regular file, and as root
    /// every program on the machine would lose its /dev/null). A symlink to it is written
    /// through too.
    #[test]
    fn a_device_is_written_to_never_replaced() {
        let null = Path::new("/dev/null");
        let dir = scratch("device");
        let link = dir.join("discard");
        std::os::unix::fs::symlink(null, &link).unwrap();
        for path in [null, link.as_path()] {
            for force in [false, true] {
                check_new(path, force).unwrap();
                write_new(path, b"discarded", force).unwrap();
                write_atomically(path, b"discarded").unwrap();
                assert!(fs::metadata(null).unwrap().file_type().is_char_device(), "{}", path.display());
            }
        }
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert!(fs::read_dir(&dir).unwrap().all(|e| e.unwrap().file_name() == "discard"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn nothing_existing_is_replaced_without_force() {
        let dir = scratch("no-clobber");
        let file = dir.join("report.md");
        fs::write(&file, "kept").unwrap();
        let link = dir.join("link.md");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let dangling = dir.join("dangling.md");
        std::os::unix::fs::symlink(dir.join("nowhere"), &dangling).unwrap();
        let fifo = dir.join("pipe");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        for path in [&file, &link, &dangling, &fifo] {
            let err = write_new(path, b"new", false).unwrap_err();
            assert!(matches!(err, OutputError::Exists { .. }), "{}: {err}", path.display());
            assert_eq!(err.to_string(), format!("{} exists; pass --force to replace it", path.display()));
            assert!(check_new(path, false).is_err());
        }
        assert_eq!(fs::read_to_string(&file).unwrap(), "kept");
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        // With --force each is replaced by a regular file; the symlink's target is untouched.
        for path in [&link, &dangling, &fifo] {
            write_new(path, b"new", true).unwrap();
            let meta = fs::symlink_metadata(path).unwrap();
            assert!(meta.file_type().is_file(), "{}", path.display());
            assert_eq!(fs::read_to_string(path).unwrap(), "new");
        }
        assert_eq!(fs::read_to_string(&file).unwrap(), "kept");
        // A new name is written, and no temporary is left behind.
        write_new(&dir.join("fresh.md"), b"fresh", false).unwrap();
        assert_eq!(fs::read_to_string(dir.join("fresh.md")).unwrap(), "fresh");
        assert!(
            fs::read_dir(&dir).unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().ends_with(".tmp"))
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_write_says_its_cause_once() {
        // /proc refuses new files: the error names the path and the cause, once.
        let err = write_new(Path::new("/proc/keyheat-x"), b"x", false).unwrap_err();
        let chain = format!("{:#}", anyhow::Error::from(err));
        assert!(chain.starts_with("cannot write /proc/keyheat-x: "), "{chain}");
        assert_eq!(chain.matches(':').count(), 1, "the cause is said once: {chain}");
        assert!(is_stdout(Path::new("-")) && check_new(Path::new("-"), false).is_ok());
    }

    #[test]
    fn a_bare_file_name_lands_in_the_current_directory() {
        assert_eq!(directory_of(Path::new("report.md")), Path::new("."));
        assert_eq!(temporary_path(Path::new("out/r.md")).parent(), Some(Path::new("out")));
    }
}
