// The flags an event may carry (log format 1.1, "Flags"): what an official should look at, in words, in
// English and Spanish. A flag never changes a ruling or the score.

const FLAGS = {
  "after-horn": {
    en: "After the horn: the chukker's time had already run out",
    es: "Después de la bocina: el tiempo del chukker ya se había cumplido",
    label: {en: "after the horn", es: "después de la bocina"},
  },
  "clock-stopped": {
    en: "Clock stopped: logged while the clock was stopped, before play resumed",
    es: "Reloj detenido: registrado con el reloj detenido, antes de reanudarse el juego",
    label: {en: "clock stopped", es: "reloj detenido"},
  },
  "chukker-order": {
    en: "Chukker out of order",
    es: "Chukker fuera de orden",
    label: {en: "chukker order", es: "orden de chukkers"},
  },
};

/** A flag's meaning in ``lang`` (its code, for a flag this page does not know). */
export const flagMeaning = (code, lang) => (FLAGS[code] ? FLAGS[code][lang] : code);

/** A flag's short label in ``lang``, as a tag beside an event (its code, for a flag this page does not know). */
export const flagLabel = (code, lang) => (FLAGS[code] ? FLAGS[code].label[lang] : code);
