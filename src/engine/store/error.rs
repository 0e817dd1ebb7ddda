//! The store's errors. Each variant is one of DynamoDB's exception types (`__type`), with
//! DynamoDB's message wording where it is known.

use crate::engine::expr::ExprError;

use super::capacity::ConsumedCapacity;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StoreError {
    /// A request DynamoDB would refuse before touching data.
    #[error("{0}")]
    Validation(String),
    /// The condition was false. A failed condition still consumes write capacity (AWS,
    /// "DynamoDB read and write operations"), so the charge travels with the error.
    #[error("The conditional request failed")]
    ConditionalCheckFailed { consumed: Box<ConsumedCapacity> },
    #[error("Requested resource not found: Table: {0} not found")]
    ResourceNotFound(String),
    #[error("Table already exists: {0}")]
    ResourceInUse(String),
    /// The write would grow an item collection (a partition key's table items plus its LSI
    /// entries) beyond the limit, 10 GB in DynamoDB.
    #[error(
        "Item collection size limit exceeded: the item collection for partition key value {partition_key} would hold \
         {would_be} bytes, more than the limit of {limit} bytes for a table with local secondary indexes"
    )]
    ItemCollectionSizeLimitExceeded { partition_key: String, would_be: u64, limit: u64 },
}

impl StoreError {
    /// DynamoDB's `__type` name of the error.
    pub fn type_name(&self) -> &'static str {
        match self {
            StoreError::Validation(_) => "ValidationException",
            StoreError::ConditionalCheckFailed { .. } => "ConditionalCheckFailedException",
            StoreError::ResourceNotFound(_) => "ResourceNotFoundException",
            StoreError::ResourceInUse(_) => "ResourceInUseException",
            StoreError::ItemCollectionSizeLimitExceeded { .. } => "ItemCollectionSizeLimitExceededException",
        }
    }

    /// Capacity the failed request still consumed (a failed condition is charged).
    pub fn consumed(&self) -> Option<&ConsumedCapacity> {
        match self {
            StoreError::ConditionalCheckFailed { consumed } => Some(consumed),
            _ => None,
        }
    }
}

impl From<ExprError> for StoreError {
    fn from(error: ExprError) -> StoreError {
        StoreError::Validation(error.message)
    }
}
