#![allow(non_snake_case, mixed_script_confusables, confusable_idents)]
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
pub struct Matrix<const R: usize, const C: usize>([[f64; C]; R]);
impl<const R: usize, const C: usize> Matrix<R, C> { #[inline(never)] pub fn trace(&self) -> f64 { (0..R.min(C)).map(|i| self.0[i][i]).sum() } }
#[inline(never)] pub fn flag<const B: bool, const CH: char, const N: i32>() -> i64 { if B { CH as i64 + N as i64 } else { -(N as i64) } }
#[inline(never)] pub fn größe(x: &[u8]) -> usize { x.len() }
#[inline(never)] pub fn 数(x: u32) -> u32 { x.wrapping_mul(3) }
pub trait Visit<'a> { fn visit(&self, s: &'a str) -> &'a str; }
impl<'a> Visit<'a> for u8 { #[inline(never)] fn visit(&self, s: &'a str) -> &'a str { &s[..(*self as usize).min(s.len())] } }
#[inline(never)] pub fn apply<F: Fn(&str) -> usize>(f: F, s: &str) -> usize { f(s) }
#[inline(never)] pub fn dynf(f: &dyn for<'x> Fn(&'x [u8], (u8, i16)) -> &'x [u8]) -> usize { f(b"hello", (1, 2)).len() }
#[inline(never)] pub fn raw(p: *const u8, q: *mut [u16; 4], t: (i128, u128, char, bool, (), f32)) -> usize { p as usize ^ q as usize ^ (t.0 as usize) }
#[inline(never)] pub unsafe extern "C" fn cfn(x: u64) -> u64 { x + 1 }
#[inline(never)] pub fn fptr(f: unsafe extern "C" fn(u64) -> u64, g: fn() -> !) -> usize { f as usize ^ g as usize }
fn never() -> ! { std::process::exit(0) }
#[inline(never)] pub fn generic<T: Debug + Clone, U: ?Sized>(t: &T, _u: Option<Box<U>>) -> String { format!("{:?}", t.clone()) }
fn main() {
  let m = Matrix::<3, 3>([[1.0; 3]; 3]); let mut s = m.trace();
  s += flag::<true, 'x', -5>() as f64 + flag::<false, '\u{e9}', 7>() as f64;
  s += größe(b"abc") as f64 + 数(7) as f64 + 3u8.visit("hello").len() as f64;
  s += apply(|x| x.len(), "abc") as f64 + dynf(&|x, _| x) as f64;
  let mut arr = [0u16; 4]; s += raw(b"x".as_ptr(), &mut arr, (1, 2, 'c', true, (), 1.0)) as f64;
  s += fptr(cfn, never) as f64 % 2.0; s += generic::<Vec<u8>, str>(&vec![1u8], None).len() as f64;
  let mut h: HashMap<String, BTreeMap<u32, Vec<(u8, char)>>> = HashMap::new(); h.entry("a".into()).or_default().insert(1, vec![(1, 'a')]);
  println!("{} {}", s, h.len());
}
