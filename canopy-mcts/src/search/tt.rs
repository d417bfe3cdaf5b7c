//! The transposition table: a fixed-size, power-of-two, open-addressed map from Zobrist key to node,
//! shared lock-free by all workers. It turns the search tree into a DAG where positions repeat.
//!
//! Every slot has an occupancy bit, in a bitmap a 128th of the table's size that mostly stays in cache.
//! A slot is claimed by setting its bit with a `fetch_or` (the one that turns it from 0 to 1 claims it);
//! the claimer then stores the key and publishes the node pointer with Release ([I7]). A probe walks the
//! bits and reads a slot only where its bit is set ([I13]), so a probe of a key that is not in the table
//! (most of them) reads no slot. A probe that finds a claimed slot without the key or the pointer yet
//! passes over it (it never waits), and every probe checks the key stored in the node itself, so it
//! never returns a node of another position ([I8]).

use crate::search::node::Node;
use crate::sync::{AtomicPtr, AtomicU64, Ordering};

/// Linear-probe distance: after this many occupied slots a key is not stored.
const PROBE_LIMIT: usize = 8;

/// Bytes per slot (for sizing the table from a memory budget).
pub const SLOT_BYTES: usize = 16;

/// Tables up to this size are mapped when they are made ([`TranspositionTable::prefault`]); larger ones
/// (a long search's, at most an eighth of the memory budget) are mapped as the search first touches each
/// page, so that a table sized for a long search costs nothing until it is used.
const PREFAULT_MAX_BYTES: usize = 64 << 20;

/// The smallest memory page of the platforms canopy runs on.
const PAGE_BYTES: usize = 4096;

/// The key stored for a position whose Zobrist key is 0 (0 marks an empty slot).
const ZERO_KEY_STAND_IN: u64 = 0x5151_5151_5151_5151;

struct Slot<M> {
    /// 0 = empty (or claimed and not yet written); otherwise a key. Stored once, by the slot's claimer
    /// ([I7]).
    key: AtomicU64,
    /// Null until the claimer publishes its node with Release ([I7]).
    node: AtomicPtr<Node<M>>,
}

/// A lock-free transposition table of `2^k` slots of 16 bytes, and one occupancy bit per slot.
pub struct TranspositionTable<M> {
    slots: Box<[Slot<M>]>,
    mask: usize,
    /// Bit `i % 64` of word `i / 64` is set once slot `i` is claimed ([I7], [I13]): a probe reads this
    /// bitmap (a 128th of the table, so it mostly stays in cache) and reads a slot only where its bit is
    /// set, and an insert writes a slot whose bit it set without reading it first.
    occupied: Box<[AtomicU64]>,
}

/// Result of [`TranspositionTable::get_or_insert`].
pub enum Lookup<'a, M> {
    /// The position was already in the table: use this node (a transposition).
    Hit(&'a Node<M>),
    /// The candidate was stored (or could not be stored: the neighbourhood was full or a racing insert
    /// of the same key had not published yet); use the candidate.
    Inserted,
}

impl<M> TranspositionTable<M> {
    /// A table with at least `min_slots` slots (rounded up to a power of two, at least 16).
    ///
    /// # Panics
    /// When the allocator cannot provide the table (see [`TranspositionTable::try_with_slots`]).
    #[cfg(any(canopy_loom, feature = "internals"))]
    pub fn with_slots(min_slots: usize) -> Self {
        Self::try_with_slots(min_slots).expect("transposition table allocation failed")
    }

    /// A table with at least `min_slots` slots (rounded up to a power of two, at least 16), or `None`
    /// when its size overflows or the allocator cannot provide it.
    pub fn try_with_slots(min_slots: usize) -> Option<Self> {
        let n = min_slots.max(16).checked_next_power_of_two()?;
        let mut occupied = Vec::new();
        occupied.try_reserve_exact(n / 64 + 1).ok()?;
        occupied.extend((0..n / 64 + 1).map(|_| AtomicU64::new(0)));
        let table = Self { slots: empty_slots(n)?, mask: n - 1, occupied: occupied.into_boxed_slice() };
        if table.bytes() <= PREFAULT_MAX_BYTES {
            table.prefault();
        }
        Some(table)
    }

    /// Writes one slot of every memory page, before the table is shared, so that the operating system
    /// maps the whole table now. Lazily, the first probe of a page maps the shared zero page and the
    /// first insert into it then replaces that page; with several workers running, the replacement
    /// interrupts every core of the search to flush its stale translation (on a 2-core virtual machine
    /// this was 9% of a two-thread search of the synthetic tree, and none of a one-thread search).
    fn prefault(&self) {
        for slot in self.slots.iter().step_by(PAGE_BYTES / SLOT_BYTES) {
            // The slot is empty (the table is new and not shared): storing its 0 changes nothing.
            slot.key.store(0, Ordering::Relaxed);
        }
    }

    /// Number of slots.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Bytes held by the table (its slots and occupancy bitmap).
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot<M>>() + self.occupied.len() * 8
    }

    /// Whether slot `i`'s occupancy bit is set.
    #[inline]
    fn occupied_bit(&self, i: usize) -> bool {
        self.occupied[i / 64].load(Ordering::Acquire) & (1 << (i % 64)) != 0
    }

    /// Number of slots whose key is set (a full scan: for reports, not for the hot loop).
    pub fn filled(&self) -> usize {
        self.slots.iter().filter(|s| s.key.load(Ordering::Relaxed) != 0).count()
    }

    #[inline]
    fn stored_key(key: u64) -> u64 {
        if key == 0 {
            ZERO_KEY_STAND_IN
        } else {
            key
        }
    }

    /// Finds the node stored for `key`, if any ([I7], [I8], [I13]).
    pub fn probe(&self, key: u64) -> Option<&Node<M>> {
        let k = Self::stored_key(key);
        let start = (k as usize) & self.mask;
        for i in 0..PROBE_LIMIT {
            let index = (start + i) & self.mask;
            if !self.occupied_bit(index) {
                // [I13] a clear bit: the slot is empty (or a racing claim is not visible yet: a miss).
                return None;
            }
            let slot = &self.slots[index];
            match slot.key.load(Ordering::Acquire) {
                sk if sk == k => {
                    let p = slot.node.load(Ordering::Acquire);
                    // SAFETY: [I7] a non-null node pointer was published with Release after the node was
                    // built; our Acquire load synchronises with it. [I6] nodes live as long as the arenas,
                    // which outlive the table's use.
                    let node = unsafe { p.as_ref() }?;
                    // [I8] the node's own key must match.
                    return (node.key() == key).then_some(node);
                }
                _ => {}
            }
        }
        None
    }

    /// Returns the node already stored for `key`, or stores `candidate` for it: in the first slot of the
    /// key's neighbourhood whose occupancy bit this call sets ([I7]). Safe for any number of writers.
    ///
    /// # Safety
    /// `candidate` points to a fully initialised node with key `key` that lives as long as the search
    /// arenas ([I6]).
    pub unsafe fn get_or_insert(&self, key: u64, candidate: *mut Node<M>) -> Lookup<'_, M> {
        let k = Self::stored_key(key);
        let start = (k as usize) & self.mask;
        for i in 0..PROBE_LIMIT {
            let index = (start + i) & self.mask;
            let (word, bit) = (&self.occupied[index / 64], 1u64 << (index % 64));
            // [I7] the claim: the one `fetch_or` that finds the bit clear owns the slot, and the slot is
            // read only where the bit was set already (by the time the bit is seen clear, no one holds it).
            if word.load(Ordering::Acquire) & bit == 0 && word.fetch_or(bit, Ordering::AcqRel) & bit == 0 {
                let slot = &self.slots[index];
                slot.key.store(k, Ordering::Relaxed);
                slot.node.store(candidate, Ordering::Release);
                return Lookup::Inserted;
            }
            let slot = &self.slots[index];
            // A claimed slot: its key, or 0 while its claimer has not stored it (passed over, as another
            // key's slot is).
            if slot.key.load(Ordering::Acquire) == k {
                let p = slot.node.load(Ordering::Acquire);
                // SAFETY: [I7] as in `probe`; [I6] arena lifetime.
                return match unsafe { p.as_ref() } {
                    Some(node) if node.key() == key => Lookup::Hit(node),
                    // Claimed but not yet published, or a stand-in collision: never wait ([I7]).
                    _ => Lookup::Inserted,
                };
            }
        }
        Lookup::Inserted
    }
}

/// Result of [`TranspositionTable::probe_exclusive`].
pub enum Vacancy<'a, M> {
    /// The position is in the table: use this node.
    Hit(&'a Node<M>),
    /// The position is not in the table, and slot `.0` is where it goes
    /// ([`TranspositionTable::insert_exclusive`]).
    Vacant(usize),
    /// The position is not in the table and its neighbourhood is full: it is not stored.
    Full,
}

impl<M> TranspositionTable<M> {
    /// A probe for the table's sole writer ([I13]; a search with one worker): the node stored for `key`,
    /// or the empty slot where it goes, found in one walk, so that the insert that follows
    /// ([`TranspositionTable::insert_exclusive`]) writes that slot without a locked instruction.
    pub fn probe_exclusive(&self, key: u64) -> Vacancy<'_, M> {
        let k = Self::stored_key(key);
        let start = (k as usize) & self.mask;
        for i in 0..PROBE_LIMIT {
            let index = (start + i) & self.mask;
            if !self.occupied_bit(index) {
                // [I13] a clear bit and no other writer: the slot is empty.
                return Vacancy::Vacant(index);
            }
            let slot = &self.slots[index];
            if slot.key.load(Ordering::Acquire) == k {
                let p = slot.node.load(Ordering::Acquire);
                // SAFETY: [I7] as in `probe`; [I6] arena lifetime.
                return match unsafe { p.as_ref() } {
                    Some(node) if node.key() == key => Vacancy::Hit(node),
                    _ => Vacancy::Full,
                };
            }
        }
        Vacancy::Full
    }

    /// Stores `candidate` for `key` in slot `index`, which [`TranspositionTable::probe_exclusive`] just
    /// found vacant for `key`, with plain stores, and sets its occupancy bit ([I13]).
    ///
    /// No other thread may write the table between the probe and this call, nor during it (a search
    /// with one worker). If one did, entries could be lost (later probes of their keys miss), never
    /// wrong ones ([I8]).
    ///
    /// # Safety
    /// `candidate` points to a fully initialised node with key `key` that lives as long as the search
    /// arenas ([I6]).
    pub unsafe fn insert_exclusive(&self, index: usize, key: u64, candidate: *mut Node<M>) {
        let slot = &self.slots[index & self.mask];
        slot.key.store(Self::stored_key(key), Ordering::Relaxed);
        slot.node.store(candidate, Ordering::Release);
        let word = &self.occupied[(index & self.mask) / 64];
        word.store(word.load(Ordering::Relaxed) | 1 << (index % 64), Ordering::Release);
    }
}

/// `n` (>= 1) empty slots, or `None` when the allocator refuses them. Outside loom the memory comes
/// zeroed from the allocator (the operating system maps zero pages lazily, so a large table costs
/// nothing until it is used; [`TranspositionTable::try_with_slots`] maps small ones at once).
#[cfg(not(canopy_loom))]
fn empty_slots<M>(n: usize) -> Option<Box<[Slot<M>]>> {
    use std::alloc::{alloc_zeroed, Layout};
    let layout = Layout::array::<Slot<M>>(n).ok()?;
    // SAFETY: [I10] `layout` is the layout of `[Slot<M>; n]` with n >= 1 (a non-zero size, as
    // `alloc_zeroed` requires); a null result is a refusal, returned as `None`.
    let p = unsafe { alloc_zeroed(layout) } as *mut Slot<M>;
    if p.is_null() {
        return None;
    }
    // SAFETY: [I10] an all-zero `Slot` is a valid empty slot (key 0, null node; both are plain atomics
    // with no invalid bit patterns), and the box takes ownership of the allocation with the layout it
    // was made with.
    Some(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n)) })
}

/// `n` empty slots, built one by one (loom's atomics cannot be zero-initialised).
#[cfg(canopy_loom)]
fn empty_slots<M>(n: usize) -> Option<Box<[Slot<M>]>> {
    Some((0..n).map(|_| Slot { key: AtomicU64::new(0), node: AtomicPtr::new(std::ptr::null_mut()) }).collect())
}

#[cfg(all(test, not(canopy_loom)))]
mod tests {
    use super::*;
    use crate::search::node::NodeKind;

    fn node(key: u64) -> *mut Node<u8> {
        Box::into_raw(Box::new(Node::new(NodeKind::Decision, 0, key)))
    }

    #[test]
    fn exclusive_inserts_keep_the_bitmap_and_probes_find_them() {
        let table = TranspositionTable::<u8>::try_with_slots(16).unwrap();
        // Keys 3, 3 + 16 and 3 + 32 share a home slot; 0 is stored under its stand-in.
        let keys = [3u64, 19, 35, 0];
        let nodes: Vec<_> = keys.iter().map(|&k| node(k)).collect();
        for (&k, &n) in keys.iter().zip(&nodes) {
            let Vacancy::Vacant(index) = table.probe_exclusive(k) else { panic!("key {k} not vacant") };
            // SAFETY: [I6] the node is fully built and outlives the table's use.
            unsafe { table.insert_exclusive(index, k, n) };
        }
        for (&k, &n) in keys.iter().zip(&nodes) {
            assert!(matches!(table.probe_exclusive(k), Vacancy::Hit(h) if std::ptr::eq(h, n)), "key {k}");
            assert!(table.probe(k).is_some_and(|h| std::ptr::eq(h, n)), "key {k}");
        }
        // The three colliding keys took consecutive slots from their home, and the bits say so.
        let home = 3 & table.mask;
        assert!((0..3).all(|i| table.occupied_bit(home + i)));
        assert_eq!(table.filled(), 4);
        assert!(matches!(table.probe_exclusive(51), Vacancy::Vacant(i) if i == home + 3));
        // A shared insert claims the next slot by its bit; both probes find everything, and a shared
        // insert of a key that is there returns its node.
        let extra = node(51);
        // SAFETY: as above.
        assert!(matches!(unsafe { table.get_or_insert(51, extra) }, Lookup::Inserted));
        assert!(table.occupied_bit(home + 3));
        assert!(matches!(table.probe_exclusive(51), Vacancy::Hit(h) if std::ptr::eq(h, extra)));
        assert!(keys.iter().chain([51].iter()).all(|&k| table.probe(k).is_some()));
        let again = node(19);
        // SAFETY: as above.
        assert!(matches!(unsafe { table.get_or_insert(19, again) }, Lookup::Hit(h) if std::ptr::eq(h, nodes[1])));
        assert_eq!(table.filled(), 5);
        // SAFETY: made by Box::into_raw above; never stored.
        drop(unsafe { Box::from_raw(again) });
        for n in nodes.into_iter().chain([extra]) {
            // SAFETY: made by Box::into_raw above; the table is no longer used.
            drop(unsafe { Box::from_raw(n) });
        }
    }

    #[test]
    fn a_full_neighbourhood_is_reported_and_nothing_is_overwritten() {
        let table = TranspositionTable::<u8>::try_with_slots(16).unwrap();
        let keys: Vec<u64> = (0..PROBE_LIMIT as u64).map(|i| 2 + 16 * i).collect();
        let nodes: Vec<_> = keys.iter().map(|&k| node(k)).collect();
        for (&k, &n) in keys.iter().zip(&nodes) {
            let Vacancy::Vacant(index) = table.probe_exclusive(k) else { panic!("key {k} not vacant") };
            // SAFETY: as above.
            unsafe { table.insert_exclusive(index, k, n) };
        }
        assert!(matches!(table.probe_exclusive(2 + 16 * PROBE_LIMIT as u64), Vacancy::Full));
        assert!(keys.iter().all(|&k| table.probe(k).is_some()));
        // The shared insert finds no bit to claim either, and overwrites nothing.
        let late = node(2 + 16 * PROBE_LIMIT as u64);
        // SAFETY: as above.
        assert!(matches!(unsafe { table.get_or_insert(2 + 16 * PROBE_LIMIT as u64, late) }, Lookup::Inserted));
        assert!(table.probe(2 + 16 * PROBE_LIMIT as u64).is_none());
        assert!(keys.iter().zip(&nodes).all(|(&k, &n)| table.probe(k).is_some_and(|h| std::ptr::eq(h, n))));
        // SAFETY: made by Box::into_raw above; never stored.
        drop(unsafe { Box::from_raw(late) });
        for n in nodes {
            // SAFETY: as above.
            drop(unsafe { Box::from_raw(n) });
        }
    }
}
