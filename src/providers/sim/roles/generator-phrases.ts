/**
 * The sentences the simulated generator assembles outputs from. The plain pool is generic on
 * purpose (a mediocre model's default); the other families are what instructions unlock.
 */
import type { Rng } from '../prng.js';
import { capitalise, lowerFirst } from '../text.js';
import type { PromptDetails } from './prompt-details.js';

export function plainSentences(details: PromptDetails): string[] {
  return details.genre === 'prose' ? expositorySentences(details) : pitchSentences(details);
}

function expositorySentences({ topic, audience }: PromptDetails): string[] {
  const t = lowerFirst(topic);
  return [
    `${capitalise(t)} matters more than most people expect.`,
    `There are a number of ways to approach ${t}, and each one has its own trade-offs.`,
    `Many people find ${t} harder than it should be at first.`,
    `For ${audience}, the main benefit is usually the time it saves.`,
    `Experts generally agree that ${t} is an important area to understand.`,
    'There are many factors to consider, and the right choice depends on the situation.',
    'In many cases, a simple approach works better than a complicated one.',
    'It is also important to keep the bigger picture in mind.',
    `Different organisations handle ${t} in different ways.`,
    'Getting the basics right is often the most valuable first step.',
    `Over time, small improvements in ${t} can add up to meaningful results.`,
    'Of course, every situation is unique and there is no one-size-fits-all answer.',
    'It can help to start small, measure the results and adjust along the way.',
    'Communication and clear expectations play a big role as well.',
    `${capitalise(t)} has changed a lot in recent years and continues to evolve.`,
    `It is worth thinking about how ${t} fits into your plans for the coming year.`,
    'Finally, it is a good idea to review what works and what does not on a regular basis.',
    'Above all, the goal is to make steady progress rather than to be perfect.',
  ];
}

function pitchSentences({ topic, audience }: PromptDetails): string[] {
  const t = lowerFirst(topic);
  return [
    `Our platform helps teams like yours get more value out of ${t}.`,
    `Many organisations find ${t} harder than it should be, and we believe there is a better way.`,
    'We work with companies of all sizes and across many industries to improve their results.',
    'Our solution is flexible, scalable and easy to use, so your team can get started quickly.',
    `As ${audience}, you probably have a lot on your plate right now.`,
    'We have helped many businesses streamline their processes and reach their goals faster.',
    `Our team has years of experience with ${t} and related areas.`,
    'We offer a wide range of features designed to make everyday work easier.',
    'Getting started is simple, and our support team is always happy to help.',
    'We would love the opportunity to show you what we can do for your organisation.',
    "In today's fast-paced environment, it is more important than ever to stay ahead of the competition.",
    'Whether you are just starting out or looking to scale, we have you covered.',
    'Our customers often tell us that they save time and reduce costs after switching.',
    'We pride ourselves on delivering high-quality results and excellent customer service.',
    `I believe ${t} could make a real difference for ${audience}.`,
    `There are a number of ways to approach ${t}, and each one has its own trade-offs.`,
    `It is worth thinking about how ${t} fits into your plans for the coming year.`,
    'We are confident that our approach can add value for someone in your position.',
    'Our product was built by people who understand the challenges you face every day.',
    'We keep improving based on feedback from the people who use it.',
  ];
}

export function jargonSentences({ topic, genre }: PromptDetails): string[] {
  const t = lowerFirst(topic);
  if (genre === 'prose')
    return [
      `Teams that leverage ${t} well often find real synergy across departments.`,
      `A holistic, best-in-class approach to ${t} can really move the needle.`,
      `It pays to circle back on ${t} regularly and pick the low-hanging fruit first.`,
    ];
  return [
    `We help teams leverage ${t} to unlock real synergy across departments.`,
    "Let's circle back soon on how our best-in-class platform can move the needle for you.",
    'Our holistic approach creates synergy between your existing tools and your people.',
    'We leverage cutting-edge technology to drive value at scale.',
  ];
}

export function fillerOpeners(): string[] {
  return ['I hope this email finds you well.', 'I wanted to reach out to introduce our company.'];
}

export function mentionSentence(item: string, rng: Rng): string {
  return rng.pick([
    `I am writing with ${item} in mind.`,
    `This note is about ${item}.`,
    `A quick note about ${item}.`,
  ]);
}

export function concreteSentence({ topic, audience, genre }: PromptDetails, rng: Rng): string {
  const t = lowerFirst(topic);
  if (genre === 'prose')
    return rng.pick([
      `In one survey, ${rng.int(40, 85)}% of ${audience} said ${t} saved them time every week.`,
      `About ${rng.int(3, 8)} in 10 teams report better results within ${rng.pick([30, 60, 90])} days of focusing on ${t}.`,
    ]);
  return rng.pick([
    `Teams like yours typically cut the time spent on ${t} by ${rng.int(18, 45)}% within ${rng.pick([30, 60, 90])} days.`,
    `One customer, a ${rng.int(20, 400)}-person company, saved ${rng.int(6, 40)} hours a month on ${t} after switching.`,
    `Last quarter ${rng.int(12, 80)} teams moved their ${t} work to us and halved their error rate.`,
  ]);
}

export function closingQuestion({ topic, role }: PromptDetails, rng: Rng): string {
  const t = lowerFirst(topic);
  return rng.pick([
    `Would you be open to a 15-minute call next ${rng.pick(['Tuesday', 'Wednesday', 'Thursday'])} to see whether this fits?`,
    `Is ${t} something your team is looking at this quarter?`,
    `Could I send you a two-line summary of how other ${role} peers handle ${t}?`,
    `What does ${t} look like for you today?`,
  ]);
}

export function closingStatement(genre: PromptDetails['genre'], { topic }: PromptDetails, rng: Rng): string {
  if (genre === 'prose') return `Overall, ${lowerFirst(topic)} deserves careful attention.`;
  return rng.pick([
    'Please let me know if you would be interested in learning more.',
    'Feel free to reach out if you have any questions.',
  ]);
}

export function subjectLine({ topic, role }: PromptDetails, rng: Rng): string {
  const t = lowerFirst(topic);
  return rng.pick([
    `${capitalise(t)} for ${role} teams`,
    `A quicker way to handle ${t}`,
    `Quick idea on ${t}`,
  ]);
}

export type Register = 'plain' | 'formal' | 'warm';

export function greeting(register: Register, rng: Rng): string {
  if (register === 'formal') return 'Dear colleague,';
  if (register === 'warm') return rng.pick(['Hi there,', 'Hello and thanks for reading,']);
  return rng.pick(['Hello,', 'Hi,', 'Good morning,']);
}

export function signOff(register: Register, rng: Rng): string {
  const name = rng.pick(['Alex', 'Sam', 'Jordan', 'Taylor']);
  if (register === 'formal') return `Yours sincerely,\n${name} Morgan`;
  if (register === 'warm') return `Cheers,\n${name}`;
  return `${rng.pick(['Best regards', 'Kind regards', 'Thanks'])},\n${name}`;
}

export function warmSentence(): string {
  return 'I really enjoyed learning about what your team is building.';
}
