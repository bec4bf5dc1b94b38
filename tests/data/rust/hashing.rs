use std::collections::HashMap;
#[inline(never)]
fn churn(m: &mut HashMap<u64, u64>, n: u64) -> u64 { let mut s = 0; for i in 0..n { *m.entry(i % 1000).or_insert(0) += i; s ^= m[&(i % 997)]; } s }
trait Shape { fn area(&self) -> f64; }
struct Sq(f64);
impl Shape for Sq { #[inline(never)] fn area(&self) -> f64 { let mut a = 0.0; for i in 0..1000 { a += self.0 * (i as f64).sqrt(); } a } }
fn main() { let rounds: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200); let mut m = HashMap::new(); let mut t = 0u64; let shapes: Vec<Box<dyn Shape>> = (0..100).map(|i| Box::new(Sq(i as f64)) as Box<dyn Shape>).collect();
  for _ in 0..rounds { t = t.wrapping_add(churn(&mut m, 20000)); let s: f64 = shapes.iter().map(|s| s.area()).sum(); t = t.wrapping_add(s as u64); } println!("{}", t); }
