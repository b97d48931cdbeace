// Text that must be read whole in a box of fixed size, such as the console's score on a phone or a quick
// goal's team: made smaller, then wrapped onto a second line, until every character shows; never cut off.

const STEP_PX = 1;

// The text's width on one line and its box's content width (measured to the fraction of a pixel: scrollWidth
// rounds, and a last digit cut by half a pixel is a digit not read).
function widths(element) {
  const range = document.createRange();
  range.selectNodeContents(element);
  const style = getComputedStyle(element);
  const sides = ["paddingLeft", "paddingRight", "borderLeftWidth", "borderRightWidth"]
    .reduce((sum, side) => sum + parseFloat(style[side]), 0);
  return [range.getBoundingClientRect().width, element.getBoundingClientRect().width - sides];
}

function overflows(element) {
  const [text, room] = widths(element);
  return text > room;
}

/** Fit ``element``'s text in its box: from its stylesheet's font size down to ``smallestPx``, the largest
 * size at which it shows whole on one line; else on two lines at ``smallestPx``. */
export function fitText(element, smallestPx) {
  element.classList.remove("wrapped");
  element.style.fontSize = "";
  const full = parseFloat(getComputedStyle(element).fontSize);
  const [text, room] = widths(element);
  if (text <= room) return;
  // The sizes tried are STEP_PX apart below the stylesheet's; each costs the page a layout, so the first is
  // where the text's width, which goes with its size, says it fits, and the steps go on from there.
  const size = (steps) => Math.max(smallestPx, full - steps * STEP_PX);
  const fits = (steps) => {
    element.style.fontSize = `${size(steps)}px`;
    return !overflows(element);
  };
  let steps = Math.max(1, Math.ceil((full - full * room / text) / STEP_PX));
  while (steps > 1 && fits(steps - 1)) steps -= 1;
  while (size(steps) > smallestPx && !fits(steps)) steps += 1;
  element.style.fontSize = `${size(steps)}px`;
  if (overflows(element)) element.classList.add("wrapped");
}
