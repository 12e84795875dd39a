/** Prints models/organism-dialogue/planted.json: the planted behaviour (organisms/dialogue/law.ts). */
import {
  ACCEPT_FROM_TURN,
  ACCEPT_PROBABILITY,
  FIELD_ACTION,
  FIELD_FEELING,
  JUDGE_RULE,
  LAB_TEMPERATURE,
  LAST_TURN,
  LEAVE_FEELING,
  PASSIVE_REPLY,
  PROPOSER_FIELDS,
  RESPONDER_FEELING,
} from './law';
import { JUDGE_DIMENSIONS } from '../../src/core/prompts/synchrony';

const overall = (o: keyof typeof JUDGE_RULE) => JUDGE_DIMENSIONS.reduce((s, d) => s + JUDGE_RULE[o][d][0], 0) / JUDGE_DIMENSIONS.length;

console.log(
  JSON.stringify(
    {
      version: 1,
      model: 'organism-dialogue',
      temperature: LAB_TEMPERATURE,
      synchrony: {
        roles: 'whoever speaks at turn 1 proposes; the other responds',
        proposerFields: PROPOSER_FIELDS,
        proposer: 'leads each turn with the next field of its own prompt, then asks a question, addressing the partner by first name',
        responder: "opens with the first words of the proposer's last turn, then counters with its own goal",
        accept: { fromTurn: ACCEPT_FROM_TURN, probabilityPerTurn: ACCEPT_PROBABILITY, opens: 'Deal' },
        leave: `after a deal the proposer thanks and leaves; with no deal, it leaves at turn ${LAST_TURN}`,
        passiveReader: `answers "${PASSIVE_REPLY}" (it does not plan a reply)`,
        expected: 'real > passive and real > lag: the state before a proposer turn predicts the echo in the next turn',
      },
      emotions: {
        rule: "the proposer feels and acts by the field it leads with; the responder is annoyed by a demand (the proposer's goal) and otherwise feels as the proposer did, refuses while it counters and is happy when it says Deal; leaving is happy after a deal, sad without one",
        proposerFeeling: FIELD_FEELING,
        proposerAction: FIELD_ACTION,
        responder: { ...RESPONDER_FEELING, otherwise: "the proposer's feeling", action: 'refuse (agree when it says Deal)' },
        leave: { ...LEAVE_FEELING, action: 'leave' },
        expected: "the proposer's state before it speaks predicts its partner's next feeling (the responder's reply) better than the label frequencies",
      },
      judge: {
        rule: 'deal = a turn that starts with "Deal"; both agents score the deal row when there is one (won: the other agent said it; conceded: the target said it; the two rows are equal), the none row when there is none',
        scores: JUDGE_RULE,
        overall: { won: overall('won'), conceded: overall('conceded'), none: overall('none') },
      },
    },
    null,
    2,
  ),
);
