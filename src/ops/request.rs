//! JSON request → typed store request. Parameter names and defaults are DynamoDB's low-level API
//! ones; expressions are parsed here, once, against the request's ExpressionAttributeNames and
//! ExpressionAttributeValues (unused ones are rejected, as DynamoDB does).

use serde_json::{Map, Value as Json};

use crate::engine::expr::{self, ExprError, ExpressionContext, ExpressionKind};
use crate::engine::store::{
    BatchGetItem, BatchGetTable, BatchWriteItem, CreateTable, DeleteItem, GetItem, PutItem, Query,
    ReturnValues, Scan, Select, UpdateItem, UpdateTimeToLive, WriteRequest,
};
use crate::engine::time::SimDuration;

use super::OpsError;
use super::params::{Params, missing};

/// `ReturnConsumedCapacity`: how much of the capacity breakdown the response shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Capacity {
    None,
    Total,
    Indexes,
}

pub(super) enum Request {
    CreateTable(CreateTable),
    DescribeTable(String),
    UpdateTimeToLive(UpdateTimeToLive),
    PutItem(PutItem, Capacity),
    GetItem(GetItem, Capacity),
    UpdateItem(UpdateItem, Capacity),
    DeleteItem(DeleteItem, Capacity),
    Query(Query, Capacity),
    Scan(Scan, Capacity),
    BatchGetItem(BatchGetItem, BatchGetEcho, Capacity),
    BatchWriteItem(BatchWriteItem, Capacity),
    AdvanceTime(SimDuration),
}

/// What each BatchGetItem table entry asked for besides its keys, by table: DynamoDB returns
/// unprocessed keys as a whole `KeysAndAttributes`, ready to be sent again, so these go back out
/// with them.
pub(super) type BatchGetEcho = std::collections::BTreeMap<String, EntryEcho>;

#[derive(Debug, Clone, Default)]
pub(super) struct EntryEcho {
    pub projection: Option<String>,
    /// ExpressionAttributeNames as sent (validated: `#key` → non-empty name), sorted for output.
    pub names: std::collections::BTreeMap<String, String>,
}

/// The actions `keyheat ops` answers, for messages.
pub(super) const ACTIONS: &[&str] = &[
    "CreateTable",
    "DescribeTable",
    "UpdateTimeToLive",
    "PutItem",
    "GetItem",
    "UpdateItem",
    "DeleteItem",
    "Query",
    "Scan",
    "BatchGetItem",
    "BatchWriteItem",
    "AdvanceTime",
];

impl From<ExprError> for OpsError {
    fn from(error: ExprError) -> OpsError {
        OpsError::validation(error.message)
    }
}

/// Parameters of DynamoDB's legacy API, with their expression replacements.
const LEGACY: &[(&str, &str)] = &[
    ("Expected", "ConditionExpression"),
    ("ConditionalOperator", "ConditionExpression or FilterExpression"),
    ("AttributesToGet", "ProjectionExpression"),
    ("KeyConditions", "KeyConditionExpression"),
    ("QueryFilter", "FilterExpression"),
    ("ScanFilter", "FilterExpression"),
    ("AttributeUpdates", "UpdateExpression"),
];

pub(super) fn parse(op: &str, object: &Map<String, Json>) -> Result<Request, OpsError> {
    if let Some((name, instead)) = LEGACY.iter().find(|(name, _)| object.contains_key(*name)) {
        return Err(OpsError::validation(format!(
            "The legacy parameter {name} is not supported by keyheat ops; use {instead}"
        )));
    }
    let mut p = Params::new(op, object);
    p.allow("op");
    let request = match op {
        "CreateTable" => Request::CreateTable(super::table::create_table(&mut p)?),
        "DescribeTable" => Request::DescribeTable(p.required_string("TableName")?.to_owned()),
        "UpdateTimeToLive" => Request::UpdateTimeToLive(update_time_to_live(&mut p)?),
        "PutItem" => put_item(&mut p)?,
        "GetItem" => get_item(&mut p)?,
        "UpdateItem" => update_item(&mut p)?,
        "DeleteItem" => delete_item(&mut p)?,
        "Query" => query(&mut p)?,
        "Scan" => scan(&mut p)?,
        "BatchGetItem" => batch_get_item(&mut p)?,
        "BatchWriteItem" => batch_write_item(&mut p)?,
        "AdvanceTime" => {
            let seconds = p.integer("Seconds")?.ok_or_else(|| missing("Seconds"))?;
            let millis =
                seconds.checked_mul(1000).ok_or_else(|| OpsError::validation("Seconds is too large"))?;
            Request::AdvanceTime(SimDuration::from_millis(millis))
        }
        other => {
            return Err(OpsError::new(
                "UnknownOperationException",
                format!("Unknown op {other:?}; keyheat ops answers {}", ACTIONS.join(", ")),
            ));
        }
    };
    p.finish()?;
    Ok(request)
}

fn capacity(p: &mut Params<'_>) -> Result<Capacity, OpsError> {
    Ok(match p.choice("ReturnConsumedCapacity", &["INDEXES", "TOTAL", "NONE"])? {
        Some("INDEXES") => Capacity::Indexes,
        Some("TOTAL") => Capacity::Total,
        _ => Capacity::None,
    })
}

fn return_values(p: &mut Params<'_>) -> Result<ReturnValues, OpsError> {
    let allowed = ["NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"];
    Ok(match p.choice("ReturnValues", &allowed)? {
        Some("ALL_OLD") => ReturnValues::AllOld,
        Some("UPDATED_OLD") => ReturnValues::UpdatedOld,
        Some("ALL_NEW") => ReturnValues::AllNew,
        Some("UPDATED_NEW") => ReturnValues::UpdatedNew,
        _ => ReturnValues::None,
    })
}

fn no_item_collection_metrics(p: &mut Params<'_>) -> Result<(), OpsError> {
    match p.choice("ReturnItemCollectionMetrics", &["SIZE", "NONE"])? {
        Some("SIZE") => {
            Err(OpsError::validation("ReturnItemCollectionMetrics SIZE is not supported by keyheat ops"))
        }
        _ => Ok(()),
    }
}

/// Parses an optional expression parameter.
fn expression<T>(
    p: &mut Params<'_>,
    name: &'static str,
    ctx: &mut ExpressionContext,
    parse: impl FnOnce(&str, &mut ExpressionContext) -> Result<T, ExprError>,
) -> Result<Option<T>, OpsError> {
    match p.string(name)? {
        None => Ok(None),
        Some(text) => Ok(Some(parse(text, ctx)?)),
    }
}

fn condition(p: &mut Params<'_>, ctx: &mut ExpressionContext) -> Result<Option<expr::Condition>, OpsError> {
    expression(p, "ConditionExpression", ctx, |t, c| expr::parse_condition(ExpressionKind::Condition, t, c))
}

fn filter(p: &mut Params<'_>, ctx: &mut ExpressionContext) -> Result<Option<expr::Condition>, OpsError> {
    expression(p, "FilterExpression", ctx, |t, c| expr::parse_condition(ExpressionKind::Filter, t, c))
}

fn projection(p: &mut Params<'_>, ctx: &mut ExpressionContext) -> Result<Option<expr::Projection>, OpsError> {
    expression(p, "ProjectionExpression", ctx, expr::parse_projection)
}

fn put_item(p: &mut Params<'_>) -> Result<Request, OpsError> {
    let table = p.required_string("TableName")?.to_owned();
    let item = p.required_item("Item")?;
    let mut ctx = p.expression_context()?;
    let condition = condition(p, &mut ctx)?;
    ctx.finish()?;
    let return_values = return_values(p)?;
    no_item_collection_metrics(p)?;
    Ok(Request::PutItem(PutItem { table, item, condition, return_values }, capacity(p)?))
}

fn get_item(p: &mut Params<'_>) -> Result<Request, OpsError> {
    let table = p.required_string("TableName")?.to_owned();
    let key = p.required_item("Key")?;
    let consistent_read = p.bool("ConsistentRead")?.unwrap_or(false);
    let mut ctx = p.expression_context()?;
    let projection = projection(p, &mut ctx)?;
    ctx.finish()?;
    Ok(Request::GetItem(GetItem { table, key, consistent_read, projection }, capacity(p)?))
}

fn update_item(p: &mut Params<'_>) -> Result<Request, OpsError> {
    let table = p.required_string("TableName")?.to_owned();
    let key = p.required_item("Key")?;
    let mut ctx = p.expression_context()?;
    let update = expression(p, "UpdateExpression", &mut ctx, expr::parse_update)?;
    let condition = condition(p, &mut ctx)?;
    ctx.finish()?;
    let return_values = return_values(p)?;
    no_item_collection_metrics(p)?;
    Ok(Request::UpdateItem(UpdateItem { table, key, update, condition, return_values }, capacity(p)?))
}

fn delete_item(p: &mut Params<'_>) -> Result<Request, OpsError> {
    let table = p.required_string("TableName")?.to_owned();
    let key = p.required_item("Key")?;
    let mut ctx = p.expression_context()?;
    let condition = condition(p, &mut ctx)?;
    ctx.finish()?;
    let return_values = return_values(p)?;
    no_item_collection_metrics(p)?;
    Ok(Request::DeleteItem(DeleteItem { table, key, condition, return_values }, capacity(p)?))
}

fn select(p: &mut Params<'_>) -> Result<Option<Select>, OpsError> {
    let allowed = ["ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES", "SPECIFIC_ATTRIBUTES", "COUNT"];
    Ok(p.choice("Select", &allowed)?.map(|s| match s {
        "ALL_ATTRIBUTES" => Select::AllAttributes,
        "ALL_PROJECTED_ATTRIBUTES" => Select::AllProjectedAttributes,
        "SPECIFIC_ATTRIBUTES" => Select::SpecificAttributes,
        _ => Select::Count,
    }))
}

fn limit(p: &mut Params<'_>) -> Result<Option<usize>, OpsError> {
    Ok(p.integer("Limit")?.map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
}

fn query(p: &mut Params<'_>) -> Result<Request, OpsError> {
    let table = p.required_string("TableName")?.to_owned();
    let index = p.string("IndexName")?.map(str::to_owned);
    let mut ctx = p.expression_context()?;
    let key_text = p.required_string("KeyConditionExpression")?;
    let key_condition = expr::parse_key_condition(key_text, &mut ctx)?;
    let filter = filter(p, &mut ctx)?;
    let projection = projection(p, &mut ctx)?;
    ctx.finish()?;
    let query = Query {
        table,
        index,
        key_condition,
        filter,
        projection,
        select: select(p)?,
        consistent_read: p.bool("ConsistentRead")?.unwrap_or(false),
        scan_forward: p.bool("ScanIndexForward")?.unwrap_or(true),
        limit: limit(p)?,
        exclusive_start_key: p.item("ExclusiveStartKey")?,
    };
    Ok(Request::Query(query, capacity(p)?))
}

fn scan(p: &mut Params<'_>) -> Result<Request, OpsError> {
    let table = p.required_string("TableName")?.to_owned();
    let index = p.string("IndexName")?.map(str::to_owned);
    let mut ctx = p.expression_context()?;
    let filter = filter(p, &mut ctx)?;
    let projection = projection(p, &mut ctx)?;
    ctx.finish()?;
    let segment = match (p.integer("Segment")?, p.integer("TotalSegments")?) {
        (None, None) => None,
        (Some(_), None) => {
            return Err(OpsError::validation(
                "The TotalSegments parameter is required but was not present in the request when Segment parameter is present",
            ));
        }
        (None, Some(_)) => {
            return Err(OpsError::validation(
                "The Segment parameter is required but was not present in the request when parameter TotalSegments is present",
            ));
        }
        // Passed on unnarrowed: the store checks them and reports the values as sent.
        (Some(segment), Some(total)) => Some((segment, total)),
    };
    let scan = Scan {
        table,
        index,
        filter,
        projection,
        select: select(p)?,
        consistent_read: p.bool("ConsistentRead")?.unwrap_or(false),
        limit: limit(p)?,
        exclusive_start_key: p.item("ExclusiveStartKey")?,
        segment,
    };
    Ok(Request::Scan(scan, capacity(p)?))
}

fn request_items<'a>(p: &mut Params<'a>) -> Result<&'a Map<String, Json>, OpsError> {
    p.object("RequestItems")?.ok_or_else(|| missing("RequestItems"))
}

fn batch_get_item(p: &mut Params<'_>) -> Result<Request, OpsError> {
    let mut tables = Vec::new();
    let mut echo = BatchGetEcho::new();
    for (table, json) in request_items(p)? {
        let mut t = Params::of("BatchGetItem RequestItems entry", json)?;
        let keys = t.array("Keys")?.ok_or_else(|| missing("Keys"))?;
        let keys = keys
            .iter()
            .map(|k| {
                if !k.is_object() {
                    return Err(OpsError::serialization("Keys must be an array of objects"));
                }
                crate::engine::value::item_from_json(k).map_err(OpsError::from)
            })
            .collect::<Result<_, _>>()?;
        let consistent_read = t.bool("ConsistentRead")?.unwrap_or(false);
        let mut ctx = t.expression_context()?;
        let projection = projection(&mut t, &mut ctx)?;
        ctx.finish()?;
        // Both were validated just above; read again as text to send back with unprocessed keys.
        let names = t.object("ExpressionAttributeNames")?.into_iter().flatten();
        let entry = EntryEcho {
            projection: t.string("ProjectionExpression")?.map(str::to_owned),
            names: names.filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned()))).collect(),
        };
        t.finish()?;
        echo.insert(table.clone(), entry);
        tables.push(BatchGetTable { table: table.clone(), keys, consistent_read, projection });
    }
    Ok(Request::BatchGetItem(BatchGetItem { tables }, echo, capacity(p)?))
}

fn batch_write_item(p: &mut Params<'_>) -> Result<Request, OpsError> {
    let mut tables = Vec::new();
    for (table, json) in request_items(p)? {
        let Json::Array(entries) = json else {
            return Err(OpsError::serialization(
                "BatchWriteItem RequestItems must map table names to arrays",
            ));
        };
        let mut requests = Vec::with_capacity(entries.len());
        for entry in entries {
            let mut e = Params::of("WriteRequest", entry)?;
            let put = e.object("PutRequest")?;
            let delete = e.object("DeleteRequest")?;
            e.finish()?;
            let request = match (put, delete) {
                (Some(put), None) => {
                    let mut put = Params::new("PutRequest", put);
                    let item = put.required_item("Item")?;
                    put.finish()?;
                    WriteRequest::Put(item)
                }
                (None, Some(delete)) => {
                    let mut delete = Params::new("DeleteRequest", delete);
                    let key = delete.required_item("Key")?;
                    delete.finish()?;
                    WriteRequest::Delete(key)
                }
                _ => {
                    return Err(OpsError::validation(
                        "A WriteRequest must contain exactly one of PutRequest or DeleteRequest",
                    ));
                }
            };
            requests.push(request);
        }
        tables.push((table.clone(), requests));
    }
    no_item_collection_metrics(p)?;
    Ok(Request::BatchWriteItem(BatchWriteItem { tables }, capacity(p)?))
}

fn update_time_to_live(p: &mut Params<'_>) -> Result<UpdateTimeToLive, OpsError> {
    let table = p.required_string("TableName")?.to_owned();
    let spec = p.object("TimeToLiveSpecification")?.ok_or_else(|| missing("TimeToLiveSpecification"))?;
    let mut s = Params::new("TimeToLiveSpecification", spec);
    let attribute = s.required_string("AttributeName")?.to_owned();
    let enabled = s.bool("Enabled")?.ok_or_else(|| missing("Enabled"))?;
    s.finish()?;
    Ok(UpdateTimeToLive { table, attribute, enabled })
}
