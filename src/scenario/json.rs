//! Reading a file's JSON with every key of an object once: serde_json keeps the last of
//! duplicate keys in a map (a setting, a checkpoint's partitions, a lesson's scenario or
//! probe), so a file that says a thing twice would mean its last word without a message. This
//! reads the text into a [`Value`] and refuses a key that appears twice in one object, with
//! its line and column.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// A JSON value whose objects have no duplicate key.
struct Unique(Value);

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(UniqueVisitor)
    }
}

struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Unique;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Unique, E> {
        Ok(Unique(Value::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Unique, E> {
        Ok(Unique(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Unique, E> {
        Ok(Unique(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Unique, E> {
        // JSON text has no NaN or infinity, so every number read is finite.
        Ok(Unique(
            serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number),
        ))
    }

    fn visit_str<E>(self, v: &str) -> Result<Unique, E> {
        Ok(Unique(Value::String(v.to_string())))
    }

    fn visit_string<E>(self, v: String) -> Result<Unique, E> {
        Ok(Unique(Value::String(v)))
    }

    fn visit_unit<E>(self) -> Result<Unique, E> {
        Ok(Unique(Value::Null))
    }

    fn visit_none<E>(self) -> Result<Unique, E> {
        Ok(Unique(Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Unique, A::Error> {
        let mut items = Vec::new();
        while let Some(Unique(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Unique(Value::Array(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!(
                    "the key \"{key}\" appears twice in one object (a key is given once)"
                )));
            }
            let Unique(v) = map.next_value()?;
            object.insert(key, v);
        }
        Ok(Unique(Value::Object(object)))
    }
}

/// Reads `text` as JSON, refusing a key that appears twice in one object.
pub(crate) fn from_str(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<Unique>(text).map(|Unique(v)| v)
}
