'use strict';
// Deterministic, real-looking English for the seeded data set: titles, excerpts and content blocks
// built from a vocabulary about the things a team blogs about, so that English stemming, prefix
// search and ranking behave as they would on real posts.

/** mulberry32: a small, fast, seedable PRNG (the data set is the same on every run). */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.int = (min, max) => min + Math.floor(next() * (max - min + 1));
  next.pick = (items) => items[Math.floor(next() * items.length)];
  next.chance = (p) => next() < p;
  /** An index in [0, n) that favours small indexes (a Zipf-like popularity). */
  next.skewed = (n, power = 2.2) => Math.min(n - 1, Math.floor(n * Math.pow(next(), power)));
  return next;
}

const NOUNS = [
  'calendar',
  'schedule',
  'meeting',
  'booking',
  'team',
  'customer',
  'release',
  'database',
  'index',
  'query',
  'deployment',
  'service',
  'migration',
  'workflow',
  'invoice',
  'report',
  'dashboard',
  'conference',
  'workshop',
  'webinar',
  'speaker',
  'venue',
  'ticket',
  'registration',
  'reminder',
  'timezone',
  'holiday',
  'budget',
  'roadmap',
  'feature',
  'integration',
  'cluster',
  'replica',
  'backup',
  'latency',
  'throughput',
  'cache',
  'pipeline',
  'sprint',
  'retrospective',
  'interview',
  'onboarding',
  'contract',
  'partner',
  'community',
  'newsletter',
  'article',
  'editor',
  'draft',
  'author',
  'reader',
  'analytics',
  'campaign',
  'launch',
  'office',
  'studio',
  'kitchen',
  'garden',
  'museum',
  'concert',
  'festival',
  'lecture',
  'course',
  'student',
  'teacher',
  'clinic',
  'appointment',
  'patient',
  'doctor',
  'trainer',
  'session',
  'class',
  'room',
  'desk',
  'printer',
  'network',
  'server',
  'browser',
  'application',
  'platform',
];
const VERBS = [
  'improves',
  'reduces',
  'schedules',
  'books',
  'cancels',
  'confirms',
  'publishes',
  'measures',
  'explains',
  'shows',
  'changes',
  'moves',
  'builds',
  'tests',
  'ships',
  'reviews',
  'plans',
  'organizes',
  'tracks',
  'shares',
  'welcomes',
  'supports',
  'replaces',
  'simplifies',
  'protects',
  'speeds up',
  'slows down',
  'connects',
  'imports',
  'exports',
  'announces',
  'celebrates',
  'prepares',
  'hosts',
  'invites',
  'answers',
  'documents',
  'compares',
  'refactors',
  'monitors',
];
const ADJECTIVES = [
  'new',
  'quick',
  'careful',
  'busy',
  'quiet',
  'small',
  'large',
  'weekly',
  'monthly',
  'annual',
  'remote',
  'local',
  'shared',
  'private',
  'public',
  'reliable',
  'simple',
  'detailed',
  'practical',
  'modern',
  'early',
  'late',
  'open',
  'friendly',
  'complex',
  'seasonal',
  'popular',
  'overdue',
  'recurring',
  'international',
  'regional',
  'technical',
  'creative',
  'efficient',
  'flexible',
  'secure',
  'scalable',
  'hybrid',
  'virtual',
  'crowded',
];
const ADVERBS = [
  'quickly',
  'carefully',
  'quietly',
  'finally',
  'again',
  'every week',
  'before lunch',
  'after hours',
  'without fuss',
  'on time',
  'in production',
  'at scale',
  'for everyone',
  'this spring',
  'next quarter',
];
const PREPOSITIONS = [
  'for',
  'with',
  'across',
  'during',
  'before',
  'after',
  'around',
  'without',
  'behind',
  'inside',
];
const DETERMINERS = ['the', 'a', 'every', 'our', 'their', 'each', 'one', 'this'];
const NAMES = [
  'Ada Lovelace',
  'Grace Hopper',
  'Alan Turing',
  'Katherine Johnson',
  'Margaret Hamilton',
  'Linus Pauling',
  'Marie Curie',
  'Rosalind Franklin',
  'Tim Berners-Lee',
  'Barbara Liskov',
  'Edsger Dijkstra',
  'Donald Knuth',
  'Frances Allen',
  'Radia Perlman',
  'Ken Thompson',
  'Hedy Lamarr',
  'John Backus',
  'Anita Borg',
  'Dennis Ritchie',
  'Sophie Wilson',
  'Leslie Lamport',
  'Jean Sammet',
  'Niklaus Wirth',
  'Shafi Goldwasser',
  'Vint Cerf',
];
const FIRST = [
  'Alex',
  'Sam',
  'Maria',
  'Jonas',
  'Aiko',
  'Lena',
  'Omar',
  'Priya',
  'Chen',
  'Sofia',
  'Noah',
  'Emma',
  'Lucas',
  'Mia',
  'Yusuf',
  'Hana',
  'Pablo',
  'Ines',
  'Tariq',
  'Nora',
  'Igor',
  'Zoe',
  'Felix',
  'Amara',
];
const LAST = [
  'Smith',
  'Garcia',
  'Müller',
  'Tanaka',
  'Rossi',
  'Dubois',
  'Kowalski',
  'Silva',
  'Nguyen',
  'Okafor',
  'Jensen',
  'Haddad',
  'Novak',
  'Larsen',
  "O'Brien",
  'Costa',
  'Ivanova',
  'Kim',
  'Patel',
  'Schmidt',
];

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function sentence(r) {
  const shape = r.int(0, 3);
  let text;
  if (shape === 0) {
    text = `${r.pick(DETERMINERS)} ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} ${r.pick(VERBS)} ${r.pick(DETERMINERS)} ${r.pick(NOUNS)} ${r.pick(PREPOSITIONS)} ${r.pick(DETERMINERS)} ${r.pick(NOUNS)}`;
  } else if (shape === 1) {
    text = `${r.pick(DETERMINERS)} ${r.pick(NOUNS)} ${r.pick(VERBS)} ${r.pick(DETERMINERS)} ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} ${r.pick(ADVERBS)}`;
  } else if (shape === 2) {
    text = `${r.pick(ADVERBS)}, ${r.pick(DETERMINERS)} ${r.pick(NOUNS)} ${r.pick(VERBS)} ${r.pick(DETERMINERS)} ${r.pick(NOUNS)} and ${r.pick(VERBS)} ${r.pick(DETERMINERS)} ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}`;
  } else {
    text = `why ${r.pick(DETERMINERS)} ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} ${r.pick(VERBS)} ${r.pick(DETERMINERS)} ${r.pick(NOUNS)} ${r.pick(PREPOSITIONS)} ${r.pick(NOUNS)} teams`;
  }
  return `${capitalize(text)}.`;
}

function paragraph(r, min = 2, max = 5) {
  const count = r.int(min, max);
  const parts = [];
  for (let i = 0; i < count; i++) parts.push(sentence(r));
  return parts.join(' ');
}

function title(r) {
  const shape = r.int(0, 3);
  if (shape === 0)
    return `How the ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} ${r.pick(VERBS)} our ${r.pick(NOUNS)}`;
  if (shape === 1)
    return `${capitalize(r.pick(ADJECTIVES))} ${r.pick(NOUNS)}s ${r.pick(PREPOSITIONS)} ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}s`;
  if (shape === 2) return `${r.int(3, 12)} lessons from a ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}`;
  return `What every ${r.pick(NOUNS)} should know about ${r.pick(NOUNS)}s`;
}

/** Content blocks as the API accepts them: heading, paragraph, list, quote, image. */
function contentBlocks(r, id) {
  const blocks = [{ type: 'paragraph', text: paragraph(r, 2, 4) }];
  const sections = r.int(1, 3);
  for (let s = 0; s < sections; s++) {
    blocks.push({
      type: 'heading',
      level: 2,
      text: capitalize(`${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}s ${r.pick(PREPOSITIONS)} ${r.pick(NOUNS)}s`),
    });
    blocks.push({ type: 'paragraph', text: paragraph(r) });
    const extra = r.int(0, 5);
    if (extra === 0) {
      const items = [];
      for (let i = r.int(2, 5); i > 0; i--)
        items.push(capitalize(`${r.pick(VERBS)} ${r.pick(DETERMINERS)} ${r.pick(NOUNS)}`));
      blocks.push({ type: 'list', items });
    } else if (extra === 1) {
      blocks.push({ type: 'quote', text: sentence(r), author: r.pick(NAMES) });
    } else if (extra === 2) {
      blocks.push({
        type: 'image',
        url: `https://images.example.com/posts/${id}/${s}.jpg`,
        alt: capitalize(`${r.pick(DETERMINERS)} ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}`),
      });
    }
  }
  return blocks;
}

function personName(r) {
  return `${r.pick(FIRST)} ${r.pick(LAST)}`;
}

function slugify(text) {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
}

module.exports = {
  rng,
  sentence,
  paragraph,
  title,
  contentBlocks,
  personName,
  slugify,
  NOUNS,
  ADJECTIVES,
  VERBS,
};
