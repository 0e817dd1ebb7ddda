//! One DynamoDB call over HTTP(S): the JSON 1.0 protocol (`POST /`,
//! `Content-Type: application/x-amz-json-1.0`, `X-Amz-Target: DynamoDB_20120810.<Op>`), signed
//! with SigV4 by the AWS SDK's own signer (`aws-sigv4`), sent with a blocking client (`ureq`,
//! rustls with ring and the Mozilla roots, so https to AWS works with no system TLS library).
//!
//! A call answers with the service's status and JSON body, errors included (a throttle is an
//! answer, not a failure); only a call that got no answer at all is an error.

use std::time::{Duration, Instant, SystemTime};

use aws_credential_types::Credentials;
use aws_sigv4::http_request::{SignableBody, SignableRequest, SigningSettings, sign};
use aws_sigv4::sign::v4;
use serde_json::Value as Json;
use ureq::http::Uri;

/// How long one call may take before it counts as unanswered.
const CALL_TIMEOUT: Duration = Duration::from_secs(30);
/// How long connecting may take: a closed port answers at once, a black hole does not.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error(
        "bad endpoint URL {url:?}: {reason} (expected e.g. https://dynamodb.us-east-1.amazonaws.com or http://127.0.0.1:8000)"
    )]
    BadUrl { url: String, reason: String },
    #[error("the endpoint {url} does not answer: {message}")]
    Unreachable { url: String, message: String },
    #[error("cannot sign the request: {0}")]
    Sign(String),
    #[error(
        "{op}: the endpoint {url} answered HTTP {status} with a body that is not DynamoDB's JSON: {body}"
    )]
    Garbled { op: String, url: String, status: u16, body: String },
}

/// An endpoint with the credentials and region its calls are signed with.
pub struct Client {
    agent: ureq::Agent,
    url: String,
    region: String,
    credentials: Credentials,
}

/// The service's answer to one call.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub body: Json,
    pub latency: Duration,
}

impl Reply {
    /// The error's short name (`ProvisionedThroughputExceededException`), when the call failed.
    /// DynamoDB sends `com.amazonaws.dynamodb.v20120810#Name`; emulators often just the name.
    pub fn error(&self) -> Option<&str> {
        if self.status < 300 {
            return None;
        }
        let kind = self.body.get("__type").and_then(Json::as_str).unwrap_or("UnknownError");
        Some(kind.rsplit('#').next().unwrap_or(kind))
    }

    /// The error's message (DynamoDB spells the field `message` or `Message`).
    pub fn message(&self) -> &str {
        ["message", "Message"].iter().find_map(|k| self.body.get(*k)?.as_str()).unwrap_or("")
    }
}

/// `url` as an endpoint: http or https, a host, no path beyond `/`.
pub fn check_url(url: &str) -> Result<String, ClientError> {
    let bad = |reason: &str| ClientError::BadUrl { url: url.to_owned(), reason: reason.to_owned() };
    let uri: Uri = url.parse().map_err(|e: ureq::http::uri::InvalidUri| bad(&e.to_string()))?;
    match uri.scheme_str() {
        Some("http" | "https") => {}
        Some(other) => return Err(bad(&format!("scheme {other}: is not http or https"))),
        None => return Err(bad("no scheme: start it with https:// or http://")),
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err(bad("no host"));
    }
    if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
        return Err(bad("DynamoDB's API is at the root: give no path or query"));
    }
    Ok(format!("{}://{}/", uri.scheme_str().unwrap_or("https"), uri.authority().map_or("", |a| a.as_str())))
}

impl Client {
    pub fn new(url: &str, region: &str, credentials: Credentials) -> Result<Client, ClientError> {
        let url = check_url(url)?;
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(CALL_TIMEOUT))
            .timeout_connect(Some(CONNECT_TIMEOUT))
            .build()
            .into();
        Ok(Client { agent, url, region: region.to_owned(), credentials })
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    pub fn region(&self) -> &str {
        &self.region
    }

    /// Sends `op` with `body` and waits for the answer.
    pub fn call(&self, op: &str, body: &Json) -> Result<Reply, ClientError> {
        let payload = serde_json::to_vec(body).unwrap_or_default();
        let target = format!("DynamoDB_20120810.{op}");
        let headers = [("content-type", "application/x-amz-json-1.0"), ("x-amz-target", target.as_str())];
        let identity = self.credentials.clone().into();
        let params = v4::SigningParams::builder()
            .identity(&identity)
            .region(&self.region)
            .name("dynamodb")
            .time(SystemTime::now())
            .settings(SigningSettings::default())
            .build()
            .map_err(|e| ClientError::Sign(e.to_string()))?
            .into();
        let signable =
            SignableRequest::new("POST", &self.url, headers.iter().copied(), SignableBody::Bytes(&payload))
                .map_err(|e| ClientError::Sign(e.to_string()))?;
        let (signing, _) =
            sign(signable, &params).map_err(|e| ClientError::Sign(e.to_string()))?.into_parts();
        let mut request = self.agent.post(&self.url);
        for (name, value) in headers.iter().copied().chain(signing.headers()) {
            request = request.header(name, value);
        }
        let unreachable =
            |e: ureq::Error| ClientError::Unreachable { url: self.url.clone(), message: e.to_string() };
        let started = Instant::now();
        let mut response = request.send(&payload[..]).map_err(unreachable)?;
        let text = response.body_mut().read_to_string().map_err(unreachable)?;
        let latency = started.elapsed();
        let status = response.status().as_u16();
        let body = serde_json::from_str(&text).map_err(|_| ClientError::Garbled {
            op: op.to_owned(),
            url: self.url.clone(),
            status,
            body: text.chars().take(200).collect(),
        })?;
        Ok(Reply { status, body, latency })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_urls_are_checked_before_anything_is_sent() {
        let ok = [
            ("https://dynamodb.us-east-1.amazonaws.com", "https://dynamodb.us-east-1.amazonaws.com/"),
            ("http://127.0.0.1:8000/", "http://127.0.0.1:8000/"),
        ];
        for (url, expected) in ok {
            assert_eq!(check_url(url).unwrap(), expected);
        }
        let bad = [
            ("localhost:8000", "scheme"),
            ("ftp://host", "not http or https"),
            ("http://host/tables", "root"),
            ("not a url", "bad endpoint URL"),
            ("dynamodb.us-east-1.amazonaws.com", "no scheme"),
        ];
        for (url, says) in bad {
            let message = check_url(url).unwrap_err().to_string();
            assert!(message.contains(says), "{url}: {message}");
        }
    }

    #[test]
    fn error_names_lose_their_namespace() {
        let reply = |status, body: Json| Reply { status, body, latency: Duration::ZERO };
        let throttled = reply(
            400,
            serde_json::json!({"__type": "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException", "message": "slow down"}),
        );
        assert_eq!(throttled.error(), Some("ProvisionedThroughputExceededException"));
        assert_eq!(throttled.message(), "slow down");
        assert_eq!(reply(200, serde_json::json!({})).error(), None);
        assert_eq!(reply(500, serde_json::json!({"Message": "x"})).error(), Some("UnknownError"));
    }

    #[test]
    fn a_closed_port_is_an_unreachable_endpoint() {
        // Bind and drop: the port was free a moment ago and nothing listens on it now.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let client = Client::new(
            &format!("http://127.0.0.1:{port}"),
            "us-east-1",
            Credentials::new("a", "b", None, None, "test"),
        )
        .unwrap();
        let err = client.call("ListTables", &serde_json::json!({})).unwrap_err();
        assert!(matches!(err, ClientError::Unreachable { .. }), "{err}");
        assert!(err.to_string().contains("does not answer"), "{err}");
    }
}
