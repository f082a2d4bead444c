//! [`VecMap`] and [`VecSet`] checked against `BTreeMap` and `BTreeSet`.

use super::{VecMap, VecSet};
use std::collections::{BTreeMap, BTreeSet};

/// The same operations on a `VecMap` and a `BTreeMap` leave the same contents, return
/// the same answers and print the same.
#[test]
fn a_vec_map_behaves_as_a_btree_map() {
    let mut rng = crate::Rng::new(7);
    let mut v: VecMap<u32, u32> = VecMap::new();
    let mut b: BTreeMap<u32, u32> = BTreeMap::new();
    for i in 0..4000 {
        let k = (rng.next_u64() % 64) as u32;
        match rng.next_u64() % 6 {
            0 | 1 => assert_eq!(v.insert(k, i), b.insert(k, i)),
            2 => assert_eq!(v.remove(&k), b.remove(&k)),
            3 => {
                *v.entry(k).or_default() += 1;
                *b.entry(k).or_default() += 1;
            }
            4 => {
                let r: Vec<_> = v.range(k..k + 10).collect();
                assert_eq!(r, b.range(k..k + 10).collect::<Vec<_>>());
            }
            _ => {
                v.retain(|key, _| *key != k);
                b.retain(|key, _| *key != k);
            }
        }
        assert_eq!(v.get(&k), b.get(&k));
        assert_eq!(v.len(), b.len());
    }
    assert_eq!(format!("{v:?}"), format!("{b:?}"));
    assert!(v.iter().eq(b.iter()));
    assert!(v.iter().rev().eq(b.iter().rev()));
    assert_eq!(v.first_key_value(), b.first_key_value());
    assert_eq!(v.last_key_value(), b.last_key_value());
    let (mut v2, mut b2) = (v.clone(), b.clone());
    assert!(v2.split_off(&30).into_iter().eq(b2.split_off(&30)));
    assert!(v2.into_iter().eq(b2));
}

#[test]
fn collecting_keeps_the_last_of_equal_keys() {
    let pairs = [(3, "a"), (1, "b"), (3, "c"), (2, "d"), (1, "e")];
    let v: VecMap<_, _> = pairs.into_iter().collect();
    let b: BTreeMap<_, _> = pairs.into_iter().collect();
    assert!(v.iter().eq(b.iter()));
    assert_eq!(format!("{:?}", VecMap::from(pairs)), format!("{b:?}"));
    let s: VecSet<_> = [5, 1, 5, 3, 1].into_iter().collect();
    let t: BTreeSet<_> = [5, 1, 5, 3, 1].into_iter().collect();
    assert_eq!(format!("{s:?}"), format!("{t:?}"));
}

#[test]
fn serde_forms_are_a_btree_maps_and_sets() {
    let b: BTreeMap<u32, Vec<String>> =
        BTreeMap::from([(2, vec!["x".into()]), (1, vec![]), (10, vec!["y".into()])]);
    let v: VecMap<u32, Vec<String>> = b.clone().into_iter().collect();
    let json = serde_json::to_string(&b).unwrap();
    assert_eq!(serde_json::to_string(&v).unwrap(), json);
    let back: VecMap<u32, Vec<String>> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, v);
    let dup: VecMap<String, u32> = serde_json::from_str(r#"{"b":1,"a":2,"b":3}"#).unwrap();
    let dup_b: BTreeMap<String, u32> = serde_json::from_str(r#"{"b":1,"a":2,"b":3}"#).unwrap();
    assert!(dup.iter().eq(dup_b.iter()));
    let s: VecSet<u64> = serde_json::from_str("[3,1,2,1]").unwrap();
    let t: BTreeSet<u64> = serde_json::from_str("[3,1,2,1]").unwrap();
    assert_eq!(
        serde_json::to_string(&s).unwrap(),
        serde_json::to_string(&t).unwrap()
    );
}
