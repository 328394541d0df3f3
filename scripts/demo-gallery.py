#!/usr/bin/env python3
"""Draws the demo units' gallery pictures (command-api/demo/gallery/*.jpg), loaded by
`command-api seed-demo`. Illustrations, not photographs: the machine that builds Navalha
has no network to fetch real ones. Needs Pillow; run once, commit the output."""
import math
import pathlib
from PIL import Image, ImageDraw, ImageFont

OUT = pathlib.Path(__file__).resolve().parent.parent / "command-api" / "demo" / "gallery"
W, H = 960, 640
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def gradient(top, bottom):
    img = Image.new("RGB", (W, H))
    draw = ImageDraw.Draw(img)
    for y in range(H):
        t = y / H
        draw.line([(0, y), (W, y)], fill=tuple(int(a + (b - a) * t) for a, b in zip(top, bottom)))
    return img, draw


def caption(draw, text, sub):
    draw.rectangle([0, H - 120, W, H], fill=(17, 24, 39))
    draw.text((40, H - 104), text, font=ImageFont.truetype(FONT, 44), fill=(245, 158, 11))
    draw.text((40, H - 50), sub, font=ImageFont.truetype(FONT, 24), fill=(229, 231, 235))


def pole(unit, accent):
    img, draw = gradient((31, 41, 55), (75, 85, 99))
    x0, x1 = W // 2 - 60, W // 2 + 60
    draw.rounded_rectangle([x0 - 20, 40, x1 + 20, 90], 16, fill=(209, 213, 219))
    draw.rounded_rectangle([x0 - 20, H - 200, x1 + 20, H - 150], 16, fill=(209, 213, 219))
    stripe = Image.new("RGB", (x1 - x0, H - 240 - 90))
    sd = ImageDraw.Draw(stripe)
    colors = [(220, 38, 38), (255, 255, 255), (37, 99, 235), (255, 255, 255)]
    for i in range(-20, 40):
        y = i * 30
        sd.polygon([(0, y), (x1 - x0, y - 60), (x1 - x0, y - 30), (0, y + 30)], fill=colors[i % 4])
    img.paste(stripe, (x0, 90))
    for cx in (160, W - 160):
        draw.ellipse([cx - 70, 150, cx + 70, 290], outline=accent, width=6)
    caption(draw, unit, "Fachada e poste de barbeiro")
    return img


def chairs(unit, accent):
    img, draw = gradient((120, 53, 15), (41, 37, 36))
    draw.rectangle([0, 0, W, 200], fill=(68, 64, 60))
    for i in range(3):
        cx = 190 + i * 290
        draw.rectangle([cx - 90, 40, cx + 90, 180], fill=(203, 213, 225), outline=accent, width=5)
        draw.rounded_rectangle([cx - 70, 300, cx + 70, 380], 20, fill=(28, 25, 23))
        draw.rounded_rectangle([cx - 60, 220, cx + 60, 310], 18, fill=(28, 25, 23))
        draw.rectangle([cx - 8, 380, cx + 8, 460], fill=(156, 163, 175))
        draw.ellipse([cx - 60, 450, cx + 60, 480], fill=(107, 114, 128))
    caption(draw, unit, "Salão com três cadeiras")
    return img


def tools(unit, accent):
    img, draw = gradient((15, 23, 42), (30, 58, 138))
    cx, cy = W // 2, 250
    for angle in (-25, 25):
        a = math.radians(angle)
        dx, dy = math.sin(a) * 170, math.cos(a) * 170
        draw.line([(cx - dx, cy - dy), (cx + dx, cy + dy)], fill=(229, 231, 235), width=14)
        draw.ellipse([cx + dx - 40, cy + dy - 40, cx + dx + 40, cy + dy + 40], outline=accent, width=10)
    draw.ellipse([cx - 12, cy - 12, cx + 12, cy + 12], fill=accent)
    for i in range(22):
        x = 120 + i * 8
        draw.line([(x, 120), (x, 170)], fill=(148, 163, 184), width=4)
    draw.rectangle([112, 160, 300, 190], fill=(148, 163, 184))
    caption(draw, unit, "Tesoura, navalha e pente")
    return img


UNITS = [("centro", "Navalha Centro", (245, 158, 11)), ("savassi", "Navalha Savassi", (16, 185, 129)),
         ("batel", "Navalha Batel", (239, 68, 68))]

OUT.mkdir(parents=True, exist_ok=True)
for slug, name, accent in UNITS:
    for kind, draw_fn in (("fachada", pole), ("salao", chairs), ("ferramentas", tools)):
        draw_fn(name, accent).save(OUT / f"{slug}-{kind}.jpg", quality=72, optimize=True)
print("written to", OUT)
