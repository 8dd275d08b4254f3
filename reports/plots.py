"""Static plots with matplotlib's Agg backend (no display needed): heatmaps and score-change boxes."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np


def _pyplot():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def heatmap(names: Sequence[str], matrix: np.ndarray, path: Path, title: str) -> Path:
    """A correlation matrix with its values printed in the cells (the RoMe paper's Figure 5)."""
    plt = _pyplot()
    size = max(4.0, 0.75 * len(names) + 2)
    fig, ax = plt.subplots(figsize=(size + 1, size))
    image = ax.imshow(np.nan_to_num(matrix, nan=0.0), cmap="RdBu_r", vmin=-1, vmax=1)
    ax.set_xticks(range(len(names)), labels=names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), labels=names)
    for i in range(len(names)):
        for j in range(len(names)):
            value = matrix[i, j]
            text = "–" if np.isnan(value) else f"{value:.2f}"
            ax.text(j, i, text, ha="center", va="center", fontsize=8,
                    color="white" if abs(np.nan_to_num(value)) > 0.6 else "black")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def delta_boxes(groups: dict[str, dict[str, list[float]]], path: Path, title: str) -> Path:
    """One panel per metric (each in its own units), one box of score changes per perturbation kind.

    ``groups`` maps metric -> kind -> list of (variant - original) changes.
    """
    plt = _pyplot()
    metrics = list(groups)
    fig, axes = plt.subplots(1, len(metrics), figsize=(3.2 * len(metrics) + 1, 3.6), squeeze=False)
    for ax, metric in zip(axes[0], metrics):
        kinds = list(groups[metric])
        ax.boxplot([groups[metric][k] for k in kinds], showfliers=True)
        ax.set_xticks(range(1, len(kinds) + 1), labels=kinds, rotation=30, ha="right", fontsize=7)
        ax.axhline(0.0, color="grey", linewidth=0.8, linestyle="--")
        ax.set_title(metric, fontsize=9)
        ax.set_ylabel("variant − original", fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
