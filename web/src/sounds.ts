// Sounds for our turn, a call and a win, made with the Web Audio API (oscillators: no sound
// files, nothing fetched, so the page's Content-Security-Policy stays as it is).  Off until the
// player switches it on (web/src/comforts.ts keeps the choice); a browser lets a page make
// sound only after a click or a key, so the audio context is made, or woken, on one.

export type Sound = "turn" | "call" | "win";

// each sound as notes: [frequency in Hz, start in s, length in s]
const NOTES: Record<Sound, Array<[number, number, number]>> = {
  turn: [[880, 0, 0.09]],
  call: [[523, 0, 0.08], [659, 0.09, 0.1]],
  win: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.1], [1047, 0.3, 0.22]],
};
const VOLUME = 0.12;

export class Sounds {
  enabled = false;
  private context: AudioContext | null = null;

  constructor() {
    const wake = (): void => {
      if (this.enabled) this.audio();
    };
    document.addEventListener("pointerdown", wake, true);
    document.addEventListener("keydown", wake, true);
  }

  /** Switched on or off (by a click or a key: the moment a browser allows sound to begin). */
  set(on: boolean): void {
    this.enabled = on;
    if (on) this.play("turn");
  }

  play(sound: Sound): void {
    if (!this.enabled) return;
    const context = this.audio();
    if (context === null || context.state !== "running") return;
    const now = context.currentTime;
    for (const [frequency, start, length] of NOTES[sound]) {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.type = sound === "win" ? "triangle" : "sine";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0, now + start);
      gain.gain.linearRampToValueAtTime(VOLUME, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      tone.connect(gain).connect(context.destination);
      tone.start(now + start);
      tone.stop(now + start + length + 0.02);
    }
  }

  private audio(): AudioContext | null {
    if (this.context === null) {
      if (typeof AudioContext === "undefined") return null;
      this.context = new AudioContext();
    }
    if (this.context.state === "suspended") this.context.resume().catch(() => undefined);
    return this.context;
  }
}
