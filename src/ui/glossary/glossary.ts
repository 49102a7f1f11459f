import type { InvariantName } from '../../scenario/schema/schema';

/** One invariant as a learner reads it: what it promises, whose view it takes, what breaks it. */
export interface GlossaryEntry {
  term: InvariantName;
  title: string;
  /** Whose view of the world the checker takes. */
  view: string;
  /** One sentence: what must always be true. */
  promise: string;
  /** Why it can break even when the others hold, in a few sentences. */
  detail: string;
  /**
   * A lesson where a run breaks it, by slug; `explains` when no run of any lesson breaks it as
   * written, so the lesson can only explain it (the page then says "Read about it in").
   */
  seeIn: { slug: string; text: string; explains?: true };
}

/**
 * The invariants the verdict panel reports, in the order a learner meets them. Three of them
 * sound alike and are not: single lease is Redis's view, single holder the clients' beliefs,
 * single writer what the resource accepted. Most lessons live in the gaps between the three.
 */
export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    term: 'single-lease',
    title: 'Single lease',
    view: 'Redis',
    promise: 'At no moment do two owners each hold the same lock key on enough Redis nodes to count as holding it.',
    detail:
      'This is the lock server’s own book-keeping, and all it guarantees is that Redis never grants the lock twice at once; it says nothing about a client that keeps working after its lease ended. With one Redis primary it takes two nodes that each act as the primary, as when a network split leaves the old primary serving its side while Sentinel promotes a replica on the other. With Redlock, holding means a majority of the masters, so it breaks when a master forgets a lease (a restart without persistence) or drops it early (a clock jump) and a second owner gathers a majority of its own. A replica’s copy of a key grants nothing until that replica is promoted.',
    seeIn: { slug: 'two-primaries', text: 'Split brain: two primaries at once' },
  },
  {
    term: 'single-holder',
    title: 'Single holder',
    view: 'the clients',
    promise: 'No two clients believe they hold the same lock at the same moment.',
    detail:
      'A client believes it holds a lock from the moment it reads the OK of its acquire until it sends its release, or learns the lease is gone. Redis can be right while this breaks: a client that slept through its TTL still believes it holds a lease Redis has long since given to someone else. Belief ends when the release is sent, not when its reply arrives. Holding it guarantees that no two clients act as if alone. No lease can promise that through a long pause, which is why the checks that matter are made where the writes land.',
    seeIn: { slug: 'paused-barista', text: 'Challenge 2: the paused barista' },
  },
  {
    term: 'single-writer',
    title: 'Single writer',
    view: 'the protected resource',
    promise: 'The critical sections whose writes the resource accepted never overlap.',
    detail:
      'This is the one users feel: two baristas both changed the machine’s settings, each sure it was alone. A section runs from the moment its client believed it got the lock to its last accepted write. Both of the views above can fail without this one failing, but a fencing token alone does not keep it: fencing refuses a stale write that arrives after the newer holder’s first write, and accepts one that arrives before. It holds whatever the order when the new holder stamps its token at the resource before it acts, when the read and the write are one transaction, or when the effect can only happen once (a unique constraint, an idempotency key). It is the one a lock exists to protect.',
    seeIn: { slug: 'paused-barista', text: 'Challenge 2: the paused barista' },
  },
  {
    term: 'released-by-owner',
    title: 'Released by its owner',
    view: 'Redis',
    promise: 'A lease is deleted only by the client that holds it.',
    detail:
      'Leases may expire, or be lost with a node’s memory, but a deletion while the owner still believes it holds the lock came from somebody else: a plain DEL from a client whose own lease had already run out, a release script comparing a value two holders share, or a DEL or FLUSHALL typed at a console. The next client then walks in while the owner is still working. A release that checks the token keeps it.',
    seeIn: { slug: 'clinic-plain-del', text: 'Finding 1: the release that checks nothing' },
  },
  {
    term: 'fencing-monotonic',
    title: 'Fencing tokens only go up',
    view: 'the protected resource',
    promise: 'Each resource accepts writes in non-decreasing token order.',
    detail:
      'A fenced resource remembers the highest token it has seen and refuses anything lower. A lower token accepted after a higher one means an older holder’s write landed after a newer holder’s: exactly what fencing exists to stop. It breaks when tokens are not checked at the resource, or when a failover hands out a token twice. It can hold while two holders both write: a stale token-1 write that arrives before the first token-2 write is in order, and accepted.',
    // A fenced resource refuses lower tokens, and fencing turned off sends none: no lesson run breaks it yet.
    seeIn: { slug: 'fencing-tokens', text: 'Fencing tokens', explains: true },
  },
  {
    term: 'writes-in-lease-order',
    title: 'Writes in lease order',
    view: 'the protected resource',
    promise:
      'Once the resource has accepted a write made under one lease, it never accepts a write made under an older lease.',
    detail:
      'This is what fencing guarantees, stated without tokens, and it is less than single writer. A stale holder may still write before the newer holder does (its write simply comes first, and both are accepted); what must never happen is the older lease’s write landing after the newer one’s. It breaks when the resource does not check tokens, and when the tokens do not follow the leases: a token drawn with INCR before the SET can be larger than the token of the lease after it.',
    seeIn: { slug: 'clinic-token-before-lock', text: 'Finding 8: the token drawn before the lock' },
  },
  {
    term: 'no-lost-update',
    title: 'No lost update',
    view: 'the protected resource',
    promise: 'A read-modify-write is always based on the latest version of what it changes.',
    detail:
      'Two clients read a stock count of 5, each takes one, and both write 4: one sale vanished. It breaks whenever two read-modify-write cycles interleave, lock or no lock.',
    // Checked only on inventory resources, which no lesson has yet.
    seeIn: { slug: 'espresso-machine', text: 'Challenge 1: the espresso machine', explains: true },
  },
  {
    term: 'no-double-charge',
    title: 'No double charge',
    view: 'the payment provider',
    promise: 'A customer’s order is charged at most once.',
    detail:
      'A lock around a payment call does not make the call happen once: a holder whose lease ran out mid-call and a new holder can both charge. An idempotency key at the provider makes the second charge a no-op.',
    seeIn: { slug: 'billing-charge', text: 'Challenge 3: the billing charge' },
  },
  {
    term: 'no-double-assignment',
    title: 'No double assignment',
    view: 'the dispatch service',
    promise: 'Each delivery is assigned to one driver.',
    detail:
      'Two workers that each believe they hold the dispatch lock can send two drivers to the same order. The fix lives in the dispatch service: a conditional assignment that refuses a second driver.',
    seeIn: { slug: 'delivery-dispatch', text: 'Final: the delivery-dispatch incident' },
  },
  {
    term: 'progress',
    title: 'Progress',
    view: 'the whole system',
    promise:
      'While some client is waiting for a lock, somebody takes a lock or gets a write accepted at least every so often.',
    detail:
      'Safety is easy if nobody ever works. A longer stall is a deadlock (A holds x and waits for y, B holds y and waits for x), a lock nobody can take (no TTL and a crashed holder), or a holder that never lets go. The TTL exists for this invariant.',
    seeIn: { slug: 'simplest-lock', text: 'The simplest lock and why the token' },
  },
  {
    term: 'run-completes',
    title: 'The run completes',
    view: 'the simulator',
    promise: 'Every client finishes (or gives up) before the scenario’s time limit.',
    detail:
      'A run still busy at its horizon is stuck: a lock that never expires, a retry loop that never gives up, or a worker wedged forever.',
    seeIn: { slug: 'simplest-lock', text: 'The simplest lock and why the token' },
  },
  {
    term: 'within-permits',
    title: 'Within permits',
    view: 'the clients',
    promise: 'At no moment do more clients believe they hold a semaphore than it has permits.',
    detail:
      'A semaphore lets N clients in instead of one, so it is the single-holder promise with a bigger number, and it breaks the same ways: a holder that pauses past its lease still believes it holds a permit Redis has given to someone else, and clients configured with different sizes each count against their own limit.',
    seeIn: { slug: 'semaphore', text: 'The semaphore: N at a time' },
  },
  {
    term: 'readers-or-one-writer',
    title: 'Readers or one writer',
    view: 'the clients',
    promise: 'Any number of readers may hold a read-write lock together, but a writer holds it alone.',
    detail:
      'Readers share because reading changes nothing; a writer must see nobody else inside. It breaks when the check (is a writer in? is anyone in?) and the taking are two round trips: a reader and a writer can both look, both see the way clear, and both walk in.',
    seeIn: { slug: 'read-write-lock', text: 'The read-write lock' },
  },
  {
    term: 'served-in-order',
    title: 'Served in order',
    view: 'the clients',
    promise: 'When a client gets a lock, nobody still waiting for it asked before it did.',
    detail:
      'A plain lease goes to whoever happens to ask right after it is freed, which is usually the client that just let go. A fair lock queues the waiters in the order their requests reached Redis. The checker goes by when each client sent its first request, so a network that delivers a later request first can make even a fair queue look unfair.',
    seeIn: { slug: 'fair-lock', text: 'The fair lock' },
  },
  {
    term: 'bounded-wait',
    title: 'Bounded wait',
    view: 'each client',
    promise: 'No client waits longer than the scenario’s bound for a lock, however busy the others are.',
    detail:
      'Progress only asks that somebody gets the lock now and then; a client can still starve while the others take turns. Starvation comes from an unfair lease under heavy contention, and from a read-write lock whose readers keep overlapping so that a writer never finds it empty.',
    seeIn: { slug: 'fair-lock', text: 'The fair lock' },
  },
  {
    term: 'calm-when-down',
    title: 'Calm when down',
    view: 'the Redis node',
    promise: 'While a Redis node is down, the clients together send it no more than a few requests a second.',
    detail:
      'Every request to a dead server is wasted, and each one holds its client up for a whole timeout. Clients that retry at full speed pile on; when the node comes back, their backlog hits it at once. A circuit breaker stops calling after a few failures and sends a single trial after each cool-down.',
    seeIn: { slug: 'circuit-breaker', text: 'The circuit breaker' },
  },
];

/** The entry for an invariant's name, if it has one. */
export function glossaryEntry(term: string): GlossaryEntry | undefined {
  return GLOSSARY.find((e) => e.term === term);
}

/**
 * The lesson a term's "See it break in" (or "Read about it in") names, by its current slug, when this site includes it.
 * An instructor's course may leave that lesson out: the sentence is then dropped rather than
 * linking to a page the site does not have.
 */
export function seeInLesson(
  entry: GlossaryEntry,
  lessons: readonly { frontmatter: { slug: string; formerSlugs: readonly string[] } }[],
): GlossaryEntry['seeIn'] | undefined {
  const lesson = lessons.find(
    (l) => l.frontmatter.slug === entry.seeIn.slug || l.frontmatter.formerSlugs.includes(entry.seeIn.slug),
  );
  return lesson ? { ...entry.seeIn, slug: lesson.frontmatter.slug } : undefined;
}
