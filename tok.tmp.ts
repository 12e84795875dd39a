import * as P from './src/core/prompts';
import { BUNDLED_SCENARIO_SET, episodeFor } from './src/labs/synchrony/scenarios';
import { plantedDialogue } from './organisms/dialogue/law';
import { AutoTokenizer, env } from '@huggingface/transformers';
env.localModelPath =./models/'; env.allowRemoteModels = false;
const tok = await AutoTokenizer.from_pretrained('organism-dialogue');
const ep = episodeFor(BUNDLED_SCENARIO_SET, BUNDLED_SCENARIO_SET.scenarios[3].id, 0);
let i=0; const dia = plantedDialogue(ep, 0, () => ((i++*0.37)%1));
const msgs = P.buildDialogueTurnPrompt(ep, 1, dia.slice(0, 3));
const text = tok.apply_chat_template(msgs, { tokenize: false, add_generation_prompt: true }) as string;
console.log(text);
console.log('---- reply would be:', dia[3].text);
const show = (s: string) => console.log(JSON.stringify(s), tok.encode(s, {add_special_tokens:false}).map((t: number) => tok.decode([t])));
for (const p of ep.agents) { const n = p.persona.name; show(n); show(' ' + n.split(' ')[0]); show(', ' + n.split(' ')[0] + '?'); show('\n' + n + ':'); }
