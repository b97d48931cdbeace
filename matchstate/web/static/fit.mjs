// Text that must be read whole in a box of fixed size, such as the console's score on a phone or a quick
// goal's team: made smaller, then wrapped onto a second line, until every character shows; never cut off.

const STEP_PX = 1;

// Whether the text, on one line, is wider than its box's content (measured to the fraction of a pixel:
// scrollWidth rounds, and a last digit cut by half a pixel is a digit not read).
function overflows(element) {
  const range = document.createRange();
  range.selectNodeContents(element);
  const style = getComputedStyle(element);
  const sides = ["paddingLeft", "paddingRight", "borderLeftWidth", "borderRightWidth"]
    .reduce((sum, side) => sum + parseFloat(style[side]), 0);
  return range.getBoundingClientRect().width > element.getBoundingClientRect().width - sides;
}

/** Fit ``element``'s text in its box: from its stylesheet's font size down to ``smallestPx``, the largest
 * size at which it shows whole on one line; else on two lines at ``smallestPx``. */
export function fitText(element, smallestPx) {
  element.classList.remove("wrapped");
  element.style.fontSize = "";
  let size = parseFloat(getComputedStyle(element).fontSize);
  while (overflows(element) && size > smallestPx) {
    size = Math.max(smallestPx, size - STEP_PX);
    element.style.fontSize = `${size}px`;
  }
  if (overflows(element)) element.classList.add("wrapped");
}
