//! The access keys and region a request is signed with, found where the AWS CLI and SDKs look:
//! `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN`, then the selected profile
//! (`AWS_PROFILE`, else `default`) of the shared credentials and config files
//! (`AWS_SHARED_CREDENTIALS_FILE`, `AWS_CONFIG_FILE`, else `~/.aws/credentials` and
//! `~/.aws/config`). The files are read and parsed by the AWS SDK for Rust's own loader
//! (`aws-runtime`'s `env_config`), so profile syntax, `[profile x]` sections and `~` expansion
//! follow the SDKs exactly.
//!
//! Only static keys are taken: profiles that assume a role, use SSO or run a `credential_process`
//! need the SDK's HTTP stack and are refused with what to do instead.

use aws_credential_types::Credentials;
use aws_runtime::env_config::file::EnvConfigFiles;
use aws_runtime::env_config::section::EnvConfigSections;
use aws_runtime::env_config::source;
use aws_types::os_shim_internal::{Env, Fs};

#[derive(Debug, thiserror::Error)]
pub enum CredentialsError {
    #[error(
        "no AWS credentials: looked at AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, then profile \
         {profile:?} in {files}; set those variables, or run `aws configure`"
    )]
    Missing { profile: String, files: String },
    #[error(
        "profile {profile:?} in {files} has no static keys ({kind}): keyheat signs with static keys \
         only; export them first, e.g. `eval \"$(aws configure export-credentials --profile {profile} --format env)\"`"
    )]
    Unsupported { profile: String, files: String, kind: &'static str },
    #[error("cannot read the AWS shared config files ({files}): {message}")]
    Files { files: String, message: String },
    #[error(
        "no AWS region: give --region, or set AWS_REGION or AWS_DEFAULT_REGION, or `region` in profile \
         {profile:?} of {files}"
    )]
    NoRegion { profile: String, files: String },
}

/// Where credentials and the region came from.
#[derive(Debug, Clone)]
pub struct Found {
    pub credentials: Credentials,
    pub region: String,
    /// Where the keys came from, for the plan printed before sending (`environment`, `profile
    /// default in ~/.aws/credentials`).
    pub from: String,
}

/// Credentials and region from the process's environment and files; `region` (the flag) wins.
pub fn load(region: Option<&str>) -> Result<Found, CredentialsError> {
    load_from(&Env::real(), &Fs::real(), region)
}

/// [`load`] with the environment and file system given (tests give fakes).
pub fn load_from(env: &Env, fs: &Fs, region: Option<&str>) -> Result<Found, CredentialsError> {
    let var = |name: &str| env.get(name).ok().filter(|v| !v.is_empty());
    let files = files_named(env);
    let source = pollster::block_on(source::load(env, fs, &EnvConfigFiles::default()))
        .map_err(|e| CredentialsError::Files { files: files.clone(), message: e.to_string() })?;
    let sections = EnvConfigSections::parse(source)
        .map_err(|e| CredentialsError::Files { files: files.clone(), message: e.to_string() })?;
    let profile = sections.selected_profile().to_owned();
    let setting = |key: &str| sections.get(key).filter(|v| !v.is_empty()).map(str::to_owned);
    let region = region
        .map(str::to_owned)
        .or_else(|| var("AWS_REGION"))
        .or_else(|| var("AWS_DEFAULT_REGION"))
        .or_else(|| setting("region"))
        .ok_or_else(|| CredentialsError::NoRegion { profile: profile.clone(), files: files.clone() })?;
    if let (Some(id), Some(secret)) = (var("AWS_ACCESS_KEY_ID"), var("AWS_SECRET_ACCESS_KEY")) {
        let credentials = Credentials::new(id, secret, var("AWS_SESSION_TOKEN"), None, "environment");
        return Ok(Found { credentials, region, from: "environment".into() });
    }
    if let (Some(id), Some(secret)) = (setting("aws_access_key_id"), setting("aws_secret_access_key")) {
        let credentials = Credentials::new(id, secret, setting("aws_session_token"), None, "profile");
        return Ok(Found { credentials, region, from: format!("profile {profile} in {files}") });
    }
    let dynamic = [
        ("role_arn", "assume-role"),
        ("sso_session", "SSO"),
        ("sso_start_url", "SSO"),
        ("credential_process", "credential_process"),
        ("web_identity_token_file", "web identity"),
    ];
    if let Some((_, kind)) = dynamic.iter().find(|(key, _)| setting(key).is_some()) {
        return Err(CredentialsError::Unsupported { profile, files, kind });
    }
    Err(CredentialsError::Missing { profile, files })
}

/// The shared files as the loader will look for them (for messages).
fn files_named(env: &Env) -> String {
    let credentials =
        env.get("AWS_SHARED_CREDENTIALS_FILE").unwrap_or_else(|_| "~/.aws/credentials".to_owned());
    let config = env.get("AWS_CONFIG_FILE").unwrap_or_else(|_| "~/.aws/config".to_owned());
    format!("{credentials} and {config}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(
        vars: &[(&str, &str)],
        files: &[(&str, &str)],
        region: Option<&str>,
    ) -> Result<Found, CredentialsError> {
        let mut vars = vars.to_vec();
        vars.push(("HOME", "/home/u"));
        load_from(&Env::from_slice(&vars), &Fs::from_slice(files), region)
    }

    #[test]
    fn the_environment_comes_first_then_the_profile() {
        let files = [
            ("/home/u/.aws/credentials", "[default]\naws_access_key_id = FILE\naws_secret_access_key = s\n"),
            ("/home/u/.aws/config", "[default]\nregion = eu-west-1\n[profile other]\nregion = ap-south-1\n"),
        ];
        let env =
            found(&[("AWS_ACCESS_KEY_ID", "ENV"), ("AWS_SECRET_ACCESS_KEY", "x")], &files, None).unwrap();
        assert_eq!(env.credentials.access_key_id(), "ENV");
        assert_eq!((env.region.as_str(), env.from.as_str()), ("eu-west-1", "environment"));
        let file = found(&[("AWS_REGION", "us-east-2")], &files, None).unwrap();
        assert_eq!(file.credentials.access_key_id(), "FILE");
        assert_eq!(file.region, "us-east-2");
        assert_eq!(found(&[], &files, Some("sa-east-1")).unwrap().region, "sa-east-1");
        let other = found(
            &[("AWS_PROFILE", "other"), ("AWS_ACCESS_KEY_ID", "E"), ("AWS_SECRET_ACCESS_KEY", "x")],
            &files,
            None,
        );
        assert_eq!(other.unwrap().region, "ap-south-1");
    }

    #[test]
    fn missing_keys_and_region_say_where_keyheat_looked() {
        let none = found(&[("AWS_REGION", "us-east-1")], &[], None).unwrap_err().to_string();
        for place in [
            "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY",
            "\"default\"",
            "~/.aws/credentials",
            "~/.aws/config",
        ] {
            assert!(none.contains(place), "{none}");
        }
        let region =
            found(&[("AWS_ACCESS_KEY_ID", "a"), ("AWS_SECRET_ACCESS_KEY", "b")], &[], None).unwrap_err();
        assert!(region.to_string().contains("AWS_DEFAULT_REGION"), "{region}");
        let sso = [("/home/u/.aws/config", "[default]\nregion = eu-west-1\nsso_session = corp\n")];
        let sso = found(&[], &sso, None).unwrap_err().to_string();
        assert!(sso.contains("(SSO)") && sso.contains("export-credentials"), "{sso}");
    }
}
